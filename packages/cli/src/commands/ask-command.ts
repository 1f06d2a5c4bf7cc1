import type { CouncilEvent, CouncilSession, Stage1Result, Stage2Result, SynthesisTextPart } from '@council/core';
import type { LanguageModelV1, SimulatedSettings } from '@council/providers';
import { expandPools, sessionOutcome } from '@council/core';
import { checkModels } from '../check-models.js';
import { seatCouncil } from '../council-seats.js';
import { checkStrategy } from '../check-strategy.js';
import { CliError } from '../cli-error.js';
import { CONSENT_NAMES } from '../consent-names.js';
import type { CommandContext } from '../command-context.js';
import { commandSettings } from '../command-context.js';
import { PARTIAL_EXIT_CODE, partialSessionLine } from '../council-outcome.js';
import { createModelResolver } from '../create-model-resolver.js';
import { applyModelOptions } from '../member-model-options.js';
import { endpointConcurrency } from '../endpoint-concurrency.js';
import { followUpFromHistory } from '../follow-up-from-history.js';
import { omitUndefined } from '../omit-undefined.js';
import { isSimulatedSession, persistSession } from '../persist-session.js';
import type { PersistResult } from '../persist-session.js';
import { withConfiguredPersistence } from '../settings/bias-records-opt-in.js';
import { loadCouncilConfig } from '../settings/load-council-config.js';
import { requireHashSecret } from '../settings/require-hash-secret.js';
import { answersAndReviewsText, renderSessionText } from '../render-session-text.js';
import { runSessionLive } from '../run-session-live.js';
import type { SessionShow } from '../session-show.js';
import { SHOW_NONE } from '../session-show.js';
import { sessionDocument } from '../session-document.js';
import { createSynthesisStreamPrinter } from '../synthesis-stream-printer.js';
import { checkMemberCap } from '../check-member-cap.js';
import type { CouncilRunFlags } from '../parse-council-run-flags.js';
import { councilOptionsFromFlags } from '../council-options-from-flags.js';
import { describeEvidenceRead, readEvidenceFlags, scanEvidenceText } from '../evidence/read-evidence.js';
import { renderJuryText } from '../render-verdict-text.js';
import { reviewerFlagsFromStore } from '../reviewer-flags-from-store.js';
import { simulatedJuror } from './gate-demo-jurors.js';
import type { VerdictFlags } from '../verdict-flags.js';

/** `ask`'s options: the shared council flags (each optional; the seed a number or its text), and its own. */
export interface AskCommandOptions extends Partial<Omit<CouncilRunFlags, 'seed'>>, VerdictFlags {
  question: string;
  /** Default `LLM_COUNCIL_RANDOM_SEED`. */
  seed?: number | string;
  /** `--concurrency`: calls sent at once to each endpoint; default config.yaml's `providers.<name>.max_concurrency`, else the provider's. */
  concurrency?: number;
  /** `--max-cost`: stop before a stage whose estimated cost would take the session past this many US dollars; default config.yaml's `max_cost_usd`. */
  maxCostUsd?: number;
  /** `--continue [SESSION|last]`: a follow-up of that session of the history, whose synthesis the council sees as context. */
  continueFrom?: string;
  /** Organization whose configuration applies; default `LLM_COUNCIL_ORG`. */
  org?: string;
  /** `--show`: the members' answers and/or the reviews in the text output; default the answers when stdout is a terminal, nothing in a pipe. */
  show?: SessionShow;
}

/** Describes what was saved, in one line for stderr. */
export function describePersist(result: PersistResult): string {
  if (result.consent === 0) return 'Nothing saved (consent level 0).';
  const records = (n: number, what: string) => (n > 0 ? `${n} ${what} record${n === 1 ? '' : 's'}` : null);
  const parts = [
    result.history ? 'history' : null,
    records(result.biasRecords, 'bias'),
    records(result.contributions, 'contribution'),
    result.telemetryEvent ? 'a telemetry event (sent by `council telemetry upload`)' : null,
  ].filter(Boolean);
  // The level's name too: 'consent level 1' alone means nothing to someone who has not read the docs yet.
  return `Saved ${parts.join(', ')} at consent level ${result.consent} (${CONSENT_NAMES[result.consent] ?? 'unknown'}).`;
}

/** What `runAsk` returns: the session, and what was saved (null with `--no-persist`). */
export interface AskResult {
  session: CouncilSession;
  saved: PersistResult | null;
}

/** For a front end other than the terminal (the MCP and HTTP servers): cancel the council's calls, follow its events. */
export interface AskHooks {
  /** Aborts the council; nothing is saved, as when `ask` is interrupted. */
  abortSignal?: AbortSignal;
  onEvent?: (event: CouncilEvent) => void;
  /** Each stage-1 result as its call ends (core's `onAnswer`). */
  onAnswer?: (result: Stage1Result) => void;
  /** Each stage-2 review as its call ends (core's `onReview`). */
  onReview?: (result: Stage2Result) => void;
  /** The chairman's reply as it is written (core's `onSynthesisText`), beside the terminal's printer when there is one. */
  onSynthesisText?: (part: SynthesisTextPart) => void;
  /** Settings of the `simulated:` provider (e.g. `council serve --demo`'s personas with their built-in biases). */
  simulated?: SimulatedSettings;
  /**
   * Called once the council has produced its session, just before it is saved (not with `persist: false`). A
   * throw means nothing is saved and `runAsk` rejects with it (`council serve`: a cancel that came after the council).
   */
  beforeSave?: (session: CouncilSession) => void | Promise<void>;
  /** The session's id, chosen by the caller before the council runs (`council serve`'s run id); default a fresh UUID. */
  sessionId?: string;
  /** What the caller's input that lists the members is called, for its messages (default the CLI's `--models`); e.g. MCP's `members` input. */
  membersInput?: string;
  /** Wraps the model resolver (`council gate --demo`: simulated members that decide as jurors). */
  wrapResolver?: (resolve: (id: string) => LanguageModelV1) => (id: string) => LanguageModelV1;
  /** Evidence already read (and scanned) by the caller, e.g. text given to `council serve` or MCP; `options.evidence` paths are read after it. */
  evidenceItems?: ReadonlyArray<{ name: string; text: string }>;
}

/**
 * `council ask "<question>"`: one council session, shown live, then the answer, leaderboard and bias indicators.
 * Exit 0 when the session produced what was asked; 3 (`PARTIAL_EXIT_CODE`) when it finished partially, after the
 * whole output and one stderr line naming what is missing.
 */
export async function runAskCommand(options: AskCommandOptions, ctx: CommandContext): Promise<number> {
  const { session } = await runAsk(options, ctx);
  const outcome = sessionOutcome(session);
  if (outcome.complete) return 0;
  ctx.io.stderr(`${partialSessionLine(outcome)}\n`);
  return PARTIAL_EXIT_CODE;
}

/** Everything `council ask` does (checks, the council, output to `ctx.io`, persistence), returning the session and what was saved. */
export async function runAsk(
  options: AskCommandOptions,
  ctx: CommandContext,
  hooks: AskHooks = {},
): Promise<AskResult> {
  if (options.question.trim() === '')
    throw new CliError({ code: 'USAGE', message: 'The question is empty: council ask "your question".' });
  // --org goes into the settings (flags > environment), so a valid flag overrides an invalid LLM_COUNCIL_ORG.
  const given = options.org === undefined ? commandSettings(ctx) : commandSettings(ctx, { org: options.org });
  const env = given.secrets.providerEnv;
  // Check the persistence settings before any model is called, not after the session was paid for.
  if (options.persist !== false) requireHashSecret(given);
  const loaded = await loadCouncilConfig(given);
  // config.yaml's bias_persistence decides whether bias records are saved, unless the environment said.
  const settings = withConfiguredPersistence(given, loaded.config);
  // A follow-up keeps the council of the session it continues (members, chairman, strategy and its goal): flags
  // override each, the configured defaults (LLM_COUNCIL_MODELS, config.yaml) do not, as `llm -c` keeps the model.
  const continued =
    options.continueFrom === undefined
      ? undefined
      : await followUpFromHistory({ ref: options.continueFrom, ctx, settings });
  const followUp = continued?.followUp;
  const kept = continued?.council;
  const keepMembers = kept !== undefined && options.models === undefined && kept.members.length >= 2;
  // A chairman is kept with the members it chaired: with new --models the configured default chairs again.
  const keepChairman = keepMembers && options.chairman === undefined;
  const keepStrategy = kept !== undefined && options.strategy === undefined;
  const strategy = keepStrategy ? kept.strategy : options.strategy;
  const goal = options.goal ?? (keepStrategy ? (kept.goal ?? undefined) : undefined);
  // `@name` is a pool of config.yaml (`pools: { deep: [...] }`): its models, in order; for the chairman, the first
  // chairs and the rest are its fallbacks.
  const pools = loaded.config.pools;
  const membersInput = hooks.membersInput ?? '--models';
  const membersSource = keepMembers
    ? `the members of session ${followUp!.previousSessionId}`
    : options.models === undefined
      ? 'the configured members (LLM_COUNCIL_MODELS or config.yaml members)'
      : membersInput;
  const members = expandPools(keepMembers ? kept.members : (options.models ?? loaded.config.members), {
    pools,
    source: membersSource,
  });
  if (members.length < 2) {
    const give =
      hooks.membersInput === undefined
        ? 'pass --models a,b,c'
        : `give two or more model ids (or a pool "@name") in ${hooks.membersInput}`;
    throw new CliError({
      code: 'USAGE',
      message: `A council needs at least two models: ${give}, list them under members: in config.yaml, or set LLM_COUNCIL_MODELS.`,
    });
  }
  checkMemberCap({ count: members.length, source: membersSource });
  const chairmen = expandPools(
    [keepChairman ? kept.chairman : (options.chairman ?? loaded.config.chairman ?? members[0]!)],
    {
      pools,
      source: keepChairman
        ? `the chairman of session ${followUp!.previousSessionId}`
        : options.chairman === undefined
          ? 'the configured chairman'
          : '--chairman',
    },
  );
  const chairman = chairmen[0]!;
  checkStrategy({ config: loaded.config, strategy, goal });
  const seed = options.seed ?? settings.randomSeed ?? undefined;
  if (followUp !== undefined) {
    const keptParts = [
      keepMembers ? `members (${members.join(', ')})` : null,
      keepChairman ? `chairman (${chairman})` : null,
      keepStrategy ? `strategy (${strategy})` : null,
    ].filter((part) => part !== null);
    ctx.io.stderr(
      `Continuing conversation ${followUp.conversationId}: the council sees the answer of session ${followUp.previousSessionId} as context.${keptParts.length === 0 ? '' : ` It keeps that session's ${keptParts.join(', ')}.`}\n`,
    );
  }
  // --system and -o temperature=… over config.yaml's model_options, per model id (issue 30 item 15).
  const modelOptions = applyModelOptions({ flags: options, config: loaded.config.modelOptions });
  const resolveFromSettings = modelOptions.resolveModel(
    createModelResolver({
      env,
      ...omitUndefined({ simulated: hooks.simulated }),
      maxRetries: options.retries ?? loaded.config.retries,
      maxResponseBytes: loaded.config.maxReplyBytes,
      concurrency: endpointConcurrency(loaded.config, options.concurrency),
    }),
  );
  // In jury mode the simulated provider's personas decide too (it reads no prompts, so it cannot follow the jury's).
  const juryResolver =
    (options.verdict ?? loaded.config.verdict) === undefined
      ? resolveFromSettings
      : (id: string) => simulatedJuror(resolveFromSettings(id));
  const resolveModel = hooks.wrapResolver === undefined ? juryResolver : hooks.wrapResolver(juryResolver);
  // Without a key the council would start, lose every member to it and report a quorum failure.
  // Personality ids sit as their personality (model and system prompt); checked by the models behind them.
  const seats = seatCouncil({ members, chairman, personalities: loaded.personalities });
  checkModels({ ids: seats.modelIds, env, resolveModel });
  const simulated = seats.simulated;
  // Evidence is read and scanned for secrets before any model is called: a secret refuses the run here.
  const textEvidence = scanEvidenceText(hooks.evidenceItems ?? [], options.redactSecrets === true);
  for (const line of describeEvidenceRead({ excluded: [], redacted: textEvidence.redacted }))
    ctx.io.stderr(`${line}\n`);
  const read = await readEvidenceFlags({
    sources: options.evidence,
    redact: options.redactSecrets === true,
    cwd: ctx.cwd,
    io: ctx.io,
  });
  const evidence = [...textEvidence.items, ...read.items];
  const verdict = options.verdict ?? loaded.config.verdict;
  // A jury names a reviewer the bias store has flagged beside its vote (when the store has enough sessions).
  const known = verdict === undefined ? { flags: {}, note: null } : await reviewerFlagsFromStore(ctx, settings);
  if (known.note !== null) ctx.io.stderr(`note: ${known.note}\n`);
  // Text mode streams the answer as the chairman writes it; --json prints one document at the end.
  const terminal = options.json
    ? null
    : createSynthesisStreamPrinter({ write: ctx.io.stdout, style: ctx.out, simulated });
  const onText = hooks.onSynthesisText;
  const printer =
    terminal === null || onText === undefined
      ? terminal
      : {
          write: (part: SynthesisTextPart) => {
            onText(part);
            terminal.write(part);
          },
          finish: (session: Pick<CouncilSession, 'synthesis'>) => terminal.finish(session),
        };
  // The answers (and reviews) go above the synthesis: printed as it starts to stream, or with it at the end.
  const show = options.show ?? (ctx.io.stdoutIsTTY === true ? { answers: true, reviews: false } : SHOW_NONE);
  const { session, answerStreamed, shownBeforeSynthesis } = await runSessionLive({
    ctx,
    members,
    chairman,
    label: simulated ? 'simulated' : `${members.length} members`,
    ...omitUndefined({ onEvent: hooks.onEvent }),
    ...(printer === null
      ? {}
      : {
          printer,
          beforeSynthesis: (results) =>
            ctx.io.stdout(answersAndReviewsText({ ...results, show, style: ctx.out, simulated })),
        }),
    council: {
      query: options.question,
      members: seats.members.map(modelOptions.seat),
      chairman: seats.chairman,
      ...(chairmen.length > 1 ? { chairmanFallbacks: [...chairmen.slice(1), ...loaded.config.chairmanFallbacks] } : {}),
      config: loaded.config,
      resolveModel,
      ...omitUndefined({ abortSignal: hooks.abortSignal, onAnswer: hooks.onAnswer, onReview: hooks.onReview }),
      ...(onText === undefined || printer !== null ? {} : { onSynthesisText: onText }),
      // The bias indicators are part of the output: on unless LLM_COUNCIL_BIAS_AUDIT says otherwise.
      biasAudit: settings.biasAudit === null ? true : loaded.config.biasAudit,
      biasAuditThresholds: settings.biasThresholds,
      ...councilOptionsFromFlags({ ...options, strategy, goal }),
      ...omitUndefined({ seed, followUp, sessionId: hooks.sessionId }),
      ...omitUndefined({ verdict, verdictMinMargin: options.minMargin, maxEvidenceChars: options.evidenceMaxChars }),
      ...(evidence.length > 0 ? { evidence } : {}),
      ...(verdict === undefined ? {} : { reviewerFlags: known.flags }),
    },
  });
  if (options.json) ctx.io.stdout(`${JSON.stringify(sessionDocument(session), null, 2)}\n`);
  else
    ctx.io.stdout(
      renderSessionText({
        session,
        style: ctx.out,
        simulated: isSimulatedSession(session),
        answerStreamed,
        show,
        shownBefore: shownBeforeSynthesis,
      }) + renderJuryText(session, ctx.out),
    );
  let saved: PersistResult | null = null;
  if (options.persist !== false) {
    await hooks.beforeSave?.(session);
    saved = await persistSession({
      session,
      settings,
      version: ctx.version,
      keepQuestion: loaded.config.historyQuestions && options.keepQuestion !== false,
    });
    ctx.io.stderr(`${describePersist(saved)}\n`);
    for (const note of saved.notes) ctx.io.stderr(`note: ${note}\n`);
  }
  return { session, saved };
}
