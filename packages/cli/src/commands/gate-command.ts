import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { sessionOutcome } from '@council/core';
import type { CouncilSession } from '@council/core';
import { CliError } from '../cli-error.js';
import type { CommandContext } from '../command-context.js';
import { commandSettings } from '../command-context.js';
import { readEvidenceFlags } from '../evidence/read-evidence.js';
import type { EvidenceExclusion, EvidenceRedaction } from '../evidence/read-evidence.js';
import { omitUndefined } from '../omit-undefined.js';
import { isSimulatedSession } from '../persist-session.js';
import { reportCliError } from '../report-cli-error.js';
import { sessionDocument } from '../session-document.js';
import type { VerdictFlags } from '../verdict-flags.js';
import { writeOutputFile } from '../write-output-file.js';
import { runAsk } from './ask-command.js';
import { GATE_DEMO_MEMBERS } from './gate-demo-jurors.js';
import { gateDecision, renderGateSummary } from './gate-summary.js';
import type { GateDecision } from './gate-summary.js';

export interface GateCommandOptions extends VerdictFlags {
  /** The question; with `policy`, added after the policy. */
  question?: string;
  /** `--policy FILE`: a policy (Markdown or text) the evidence is judged against. */
  policy?: string;
  models?: string[];
  chairman?: string;
  seed?: number;
  timeoutMs?: number;
  retries?: number;
  /** `--require-unanimous`: an approve needs every member's approve; otherwise unclear (exit 2). */
  requireUnanimous?: boolean;
  /** `--summary FILE`: also write the Markdown summary there. */
  summary?: string;
  /** `--transcript FILE`: where the session's transcript goes; default `$LLM_COUNCIL_HOME/transcripts/<session>.json`. */
  transcript?: string;
  json?: boolean;
  /** `--demo`: three simulated members that decide (offline, no key, nothing saved). */
  demo?: boolean;
  persist?: boolean;
}

/** The largest policy file read. */
const MAX_POLICY_BYTES = 256 * 1024;

function usage(message: string): CliError {
  return new CliError({ code: 'USAGE', message });
}

/** The question the jury decides: the question given, or the policy with the instruction to judge the evidence by it. */
function gateQuestion(options: GateCommandOptions, cwd: string): string {
  const question = options.question?.trim();
  if (options.policy === undefined) {
    if (question === undefined || question === '')
      throw usage(
        'council gate needs a question or --policy FILE: council gate "Is this change safe to merge?" --evidence change.diff',
      );
    return question;
  }
  let policy: string;
  try {
    const bytes = readFileSync(resolve(cwd, options.policy));
    if (bytes.length > MAX_POLICY_BYTES)
      throw usage(`The policy file ${options.policy} is larger than ${MAX_POLICY_BYTES / 1024} KiB; shorten it.`);
    policy = bytes.toString('utf8');
  } catch (error) {
    if (CliError.isInstance(error)) throw error;
    throw usage(
      `Cannot read the policy file ${options.policy}: ${(error as NodeJS.ErrnoException).code ?? String(error)}.`,
    );
  }
  const ask =
    question === undefined || question === ''
      ? 'Does the change shown in the evidence comply with this policy? Approve when it does, reject when it does not.'
      : question;
  return `${ask}\n\nThe policy (${options.policy}):\n\n${policy.trim()}`;
}

/** The transcript: the question, the gate's decision and the whole session document, as written (and hashed). */
function transcriptText(
  session: CouncilSession,
  gate: GateDecision,
  evidence: { excluded: EvidenceExclusion[]; redacted: EvidenceRedaction[] },
): string {
  return `${JSON.stringify(
    {
      kind: 'council-gate-transcript',
      schemaVersion: 1,
      question: session.query,
      decision: gate.decision,
      exitCode: gate.exitCode,
      override: gate.override,
      evidence,
      session: sessionDocument(session),
    },
    null,
    2,
  )}\n`;
}

/**
 * `council gate`: a jury of the council on a question or a policy, over evidence, for CI. Exit 0 approve, 1 reject,
 * 2 unclear, the council incomplete (a failed chairman), or the gate unable to run (a secret in the evidence, a bad
 * flag, no key). Prints a one-screen Markdown summary (or `--json`), writes the transcript with its sha256.
 */
export async function runGateCommand(options: GateCommandOptions, ctx: CommandContext): Promise<number> {
  let summaryPath: string | undefined;
  try {
    const settings = commandSettings(ctx);
    summaryPath = options.summary;
    const question = gateQuestion(options, ctx.cwd);
    const demo = options.demo === true;
    if (demo && options.models !== undefined)
      throw usage('--demo runs its own simulated members; leave out --models (or leave out --demo).');
    // Evidence is read and scanned before anything else runs: a secret stops the gate here (exit 2), nothing sent.
    const { items, excluded, redacted } = await readEvidenceFlags({
      sources: options.evidence,
      redact: options.redactSecrets === true,
      cwd: ctx.cwd,
      io: ctx.io,
    });
    // runAsk prints the session to stdout; the gate prints its summary instead.
    const quiet: CommandContext = { ...ctx, io: { ...ctx.io, stdout: () => undefined } };
    const { session } = await runAsk(
      {
        question,
        verdict: options.verdict ?? 'binary',
        ...omitUndefined({
          minMargin: options.minMargin,
          evidenceMaxChars: options.evidenceMaxChars,
          seed: options.seed,
          timeoutMs: options.timeoutMs,
          retries: options.retries,
          chairman: demo ? GATE_DEMO_MEMBERS[0] : options.chairman,
          models: demo ? [...GATE_DEMO_MEMBERS] : options.models,
        }),
        json: true,
        persist: demo ? false : options.persist !== false,
      },
      quiet,
      // In jury mode ask lets simulated members decide (simulatedJuror): --demo needs nothing more.
      items.length > 0 ? { evidenceItems: items } : {},
    );
    const gate = gateDecision(session, sessionOutcome(session), {
      requireUnanimous: options.requireUnanimous === true,
    });
    const text = transcriptText(session, gate, { excluded, redacted });
    const sha256 = createHash('sha256').update(text).digest('hex');
    const transcriptPath = writeOutputFile({
      path:
        options.transcript === undefined
          ? demo
            ? join(mkdtempSync(join(tmpdir(), 'council-gate-')), `${session.sessionId}.json`)
            : join(settings.home, 'transcripts', `${session.sessionId}.json`)
          : resolve(ctx.cwd, options.transcript),
      flag: '--transcript',
      orElse: 'give --transcript another file',
      data: text,
      settings,
    });
    const summary = renderGateSummary({
      session,
      gate,
      policy: options.policy ?? null,
      excluded,
      redacted,
      transcript: { path: options.transcript ?? transcriptPath, sha256 },
      simulated: isSimulatedSession(session),
    });
    if (summaryPath !== undefined)
      writeOutputFile({
        path: resolve(ctx.cwd, summaryPath),
        flag: '--summary',
        orElse: 'give --summary another file',
        data: summary,
        settings,
      });
    if (options.json === true) {
      const document = {
        kind: 'council-gate',
        decision: gate.decision,
        exitCode: gate.exitCode,
        override: gate.override,
        verdict: session.verdict,
        evidence: { items: session.evidence ?? [], excluded, redacted },
        transcript: { path: transcriptPath, sha256 },
        sessionId: session.sessionId,
        summary,
      };
      ctx.io.stdout(`${JSON.stringify(document, null, 2)}\n`);
    } else ctx.io.stdout(summary);
    ctx.io.stderr(`Transcript: ${transcriptPath} (sha256 ${sha256})\n`);
    ctx.io.stderr(
      `council gate: ${gate.decision} (exit ${gate.exitCode})${gate.override === null ? '' : `: ${gate.override}`}.\n`,
    );
    return gate.exitCode;
  } catch (error) {
    // Whatever stopped the gate, it did not approve: exit 2, never 0 (nor 1, which means the council rejected).
    reportCliError(error, ctx.io, { verbose: ctx.verbose, command: 'gate' });
    if (summaryPath !== undefined) {
      const why = error instanceof Error ? error.message : String(error);
      const failed = `## ⚠️ Council gate: UNCLEAR (exit 2)\n\nThe gate could not run: ${why.replace(/\n/g, ' ')}\n`;
      try {
        writeOutputFile({
          path: resolve(ctx.cwd, summaryPath),
          flag: '--summary',
          orElse: 'give --summary another file',
          data: failed,
          settings: commandSettings(ctx),
        });
      } catch {
        // The error above is what matters; a summary that cannot be written is not a second failure to report.
      }
    }
    ctx.io.stderr('council gate: unclear (exit 2): the gate could not run.\n');
    return 2;
  }
}
