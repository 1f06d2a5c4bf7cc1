import { randomUUID } from 'node:crypto';
import { deriveQueryMetadata } from '@council/bias-store';
import { CouncilError } from '@council/core';
import type { SynthesisMode, VerdictMode } from '@council/core';
import { CliError } from '../cli-error.js';
import type { CommandContext } from '../command-context.js';
import { commandSettings } from '../command-context.js';
import type { AskCommandOptions, AskHooks, AskResult } from '../commands/ask-command.js';
import { describeShortfalls } from '../council-outcome.js';
import { omitUndefined } from '../omit-undefined.js';
import { sessionDocument } from '../session-document.js';
import { loadCouncilConfig } from '../settings/load-council-config.js';
import { createRunLog } from './run-log.js';
import type { RunLog, RunStatus } from './run-log.js';
import { answerEvent, reviewEvent, streamEventFromCouncil, synthesisTextEvent } from './stream-event.js';

/** What `POST /api/sessions` asks for (validated by its schema). */
export interface SessionRequest {
  query: string;
  members?: string[];
  chairman?: string;
  strategy?: string;
  goal?: string;
  mode?: SynthesisMode;
  seed?: number | string;
  continueFrom?: string;
  /** A system prompt for every member's answer (`ask --system`). */
  system?: string;
  /** Every call's temperature, 0 to 2 (`ask -o temperature=…`). */
  temperature?: number;
  /** false: the history keeps the session without its question (`ask --no-keep-question`). */
  keepQuestion?: boolean;
  /** Jury mode (`ask --verdict`) and its margin threshold (`--min-margin`). */
  verdict?: VerdictMode;
  minMargin?: number;
  /** Evidence text every member reads (`ask --evidence`), scanned for secrets first; `redactSecrets` replaces them. */
  evidence?: Array<{ name: string; text: string }>;
  redactSecrets?: boolean;
}

/**
 * One session started through the hub: its id (the stream's key, and the session's own id in the history once it is
 * saved), its event log and what is known of it so far.
 */
export interface HubRun {
  readonly id: string;
  readonly startedAt: string;
  readonly log: RunLog;
  readonly status: RunStatus;
  /** The members as given (ids or pools), then as they start answering; the chairman as given, else null. */
  readonly members: readonly string[];
  readonly chairman: string | null;
  readonly strategy: string | null;
  readonly mode: SynthesisMode | null;
  /** The query's category (query_metadata.category), never its text. */
  readonly category: string | null;
  /** The session's id (the run's own) once the council produced its session; null before. */
  readonly sessionId: string | null;
  /** The conversation's id of a follow-up, once known. */
  readonly conversation: string | null;
  /** The council has produced its session and it is being saved: it can no longer be cancelled. */
  readonly saving: boolean;
}

/** `saving`: the council finished and its session is being saved, which a cancel can no longer stop. */
export type CancelOutcome = 'cancelling' | 'saving' | 'over' | 'unknown';

export interface SessionHub {
  /**
   * Starts a session and resolves once the council has begun (its first event), so that a request the
   * council's own checks refuse (unknown model, strategy, too few members, a missing key, an unknown session to
   * continue) rejects here with the CLI's error and leaves no run behind.
   */
  start(request: SessionRequest): Promise<HubRun>;
  get(id: string): HubRun | undefined;
  /** Runs in progress and the finished ones still kept, oldest first. */
  runs(): HubRun[];
  /** `over` also for a run whose session is being saved: a cancel accepted (`cancelling`) guarantees nothing is saved. */
  cancel(id: string): CancelOutcome;
  /** Cancels every running session and waits for them to end. */
  close(): Promise<void>;
}

export interface SessionHubOptions {
  /** The server's context: `runAsk` gets it with its io silenced. */
  ctx: CommandContext;
  /** Passed to every `runAsk` (e.g. the demo's simulated personas). */
  hooks?: Pick<AskHooks, 'simulated'>;
  /** One line per session for the server's log: ids, status, member count and duration, never the query. */
  log: (line: string) => void;
  /** Finished runs whose logs are kept for replay; older ones are dropped. Default 100. */
  keepFinished?: number;
  /** Defaults for tests; `runAsk` of ask-command. */
  runAsk?: (options: AskCommandOptions, ctx: CommandContext, hooks: AskHooks) => Promise<AskResult>;
}

const silentIo = { stdout: () => undefined, stderr: () => undefined, stdoutIsTTY: false, stderrIsTTY: false };

/**
 * With `mode_toggle: false` the configuration fixes the mode (design doc §8.1: the toggle only where the organization
 * allows it): a request for the other one is refused before the council starts.
 */
async function refuseFixedMode(mode: SynthesisMode, ctx: CommandContext): Promise<void> {
  const { config } = await loadCouncilConfig(commandSettings(ctx));
  if (config.modeToggle || mode === config.mode) return;
  throw new CliError({
    code: 'USAGE',
    message: `mode: this council's configuration fixes the mode to "${config.mode}" (mode_toggle: false): leave mode out or ask for "${config.mode}".`,
  });
}

/** What an error says on the stream and to the log: a code and the error's own message (no stack). */
export function describeRunError(error: unknown): { code: string; message: string } {
  if (CliError.isInstance(error) || CouncilError.isInstance(error)) return { code: error.code, message: error.message };
  return { code: 'INTERNAL', message: 'The session failed with an unexpected error; see the server log.' };
}

type MutableRun = { -readonly [K in keyof HubRun]: HubRun[K] };

/**
 * Runs sessions for the HTTP API: each through `runAsk` (so it is checked and persisted exactly as
 * `council ask` does), with its own event log, abort controller and subscribers. Finished runs stay for
 * replay until `keepFinished` newer ones have finished.
 */
export function createSessionHub(options: SessionHubOptions): SessionHub {
  const keep = options.keepFinished ?? 100;
  const ctx: CommandContext = { ...options.ctx, io: silentIo };
  const runs = new Map<string, MutableRun>();
  const controllers = new Map<string, AbortController>();
  const pending = new Set<Promise<unknown>>();

  const dropOldFinished = (): void => {
    const finished = [...runs.values()].filter((r) => r.status !== 'running');
    for (const run of finished.slice(0, Math.max(0, finished.length - keep))) runs.delete(run.id);
  };

  const start = async (request: SessionRequest): Promise<HubRun> => {
    const load = options.runAsk ?? (await import('../commands/ask-command.js')).runAsk;
    if (request.mode !== undefined) await refuseFixedMode(request.mode, ctx);
    const id = randomUUID();
    const started = Date.now();
    const controller = new AbortController();
    const log = createRunLog();
    const run: MutableRun = {
      id,
      startedAt: new Date(started).toISOString(),
      log,
      status: 'running',
      members: request.members ?? [],
      chairman: request.chairman ?? null,
      strategy: request.strategy ?? null,
      mode: request.mode ?? null,
      category: deriveQueryMetadata(request.query).category,
      sessionId: null,
      conversation: null,
      saving: false,
    };
    const seen = new Set<string>();
    let begun: () => void = () => undefined;
    const begins = new Promise<void>((resolve) => (begun = resolve));
    const hooks: AskHooks = {
      ...options.hooks,
      // Evidence text (issue 32): runAsk scans it for secrets before any model is called.
      ...(request.evidence === undefined ? {} : { evidenceItems: request.evidence }),
      // One id per session (issue 30 item 13): the run's id, returned by POST /api/sessions, is the stored session's.
      sessionId: id,
      abortSignal: controller.signal,
      membersInput: 'members',
      onEvent: (event) => {
        if (event.type === 'model-started' && event.stage === 1 && !seen.has(event.member)) {
          seen.add(event.member);
          run.members = [...seen];
        }
        log.append(streamEventFromCouncil(event));
        begun();
      },
      onAnswer: (result) => {
        const event = answerEvent(result);
        if (event !== null) log.append(event);
      },
      onReview: (result) => log.append(reviewEvent(result)),
      onSynthesisText: (part) => log.append(synthesisTextEvent(part)),
      // The one point that decides between a cancel and a save: a cancel accepted before it saves nothing, and
      // from here on a cancel is refused (409) rather than accepted and then ignored.
      beforeSave: () => {
        if (controller.signal.aborted) throw controller.signal.reason;
        run.saving = true;
        controllers.delete(id);
      },
    };
    const ask: AskCommandOptions = {
      question: request.query,
      json: true,
      ...omitUndefined({
        models: request.members,
        chairman: request.chairman,
        strategy: request.strategy,
        goal: request.goal,
        mode: request.mode,
        seed: request.seed,
        continueFrom: request.continueFrom,
        system: request.system,
        temperature: request.temperature,
        keepQuestion: request.keepQuestion,
        verdict: request.verdict,
        minMargin: request.minMargin,
        redactSecrets: request.redactSecrets,
      }),
    };
    const finish = (status: Exclude<RunStatus, 'running'>, detail: string): void => {
      run.status = status;
      controllers.delete(id);
      log.append({ type: 'done', data: { status } });
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      options.log(`session run ${id}: ${status}${detail} in ${seconds} s (${run.members.length} members)`);
      dropOldFinished();
    };
    const outcome = load(ask, ctx, hooks).then(
      (result) => {
        run.sessionId = result.session.sessionId;
        run.conversation = result.session.conversation?.id ?? null;
        const document = sessionDocument(result.session);
        log.append({ type: 'session', data: { session: document, saved: result.saved } });
        // A partial session finishes like any other; the log says what it lacks (never the query).
        finish(
          'finished',
          `, session ${result.session.sessionId}${document.complete ? '' : ` (partial: ${describeShortfalls(document)})`}`,
        );
      },
      (error: unknown) => {
        if (log.events.length === 0) throw error;
        if (controller.signal.aborted) {
          log.append({ type: 'cancelled', data: {} });
          finish('cancelled', '');
          return;
        }
        const described = describeRunError(error);
        log.append({ type: 'error', data: described });
        if (described.code === 'INTERNAL')
          options.log(`session run ${id}: unexpected error: ${error instanceof Error ? error.name : typeof error}`);
        finish('failed', ` (${described.code})`);
      },
    );
    pending.add(outcome);
    void outcome.finally(() => pending.delete(outcome)).catch(() => undefined);
    runs.set(id, run);
    controllers.set(id, controller);
    try {
      await Promise.race([begins, outcome]);
    } catch (error) {
      runs.delete(id);
      controllers.delete(id);
      options.log(`session refused: ${describeRunError(error).code}`);
      throw error;
    }
    return run;
  };

  return {
    start,
    get: (id) => runs.get(id),
    runs: () => [...runs.values()],
    cancel(id) {
      const run = runs.get(id);
      if (run === undefined) return 'unknown';
      const controller = controllers.get(id);
      if (run.status === 'running' && run.saving) return 'saving';
      if (run.status !== 'running' || controller === undefined) return 'over';
      controller.abort(new CouncilError({ code: 'ABORTED', message: 'The session was cancelled.' }));
      return 'cancelling';
    },
    async close() {
      for (const controller of controllers.values())
        controller.abort(new CouncilError({ code: 'ABORTED', message: 'The server is stopping.' }));
      await Promise.allSettled([...pending]);
    },
  };
}
