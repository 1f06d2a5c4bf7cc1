import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod';
import { MAX_COUNCIL_MEMBERS, sessionOutcome } from '@council/core';
import type { CouncilSession } from '@council/core';
import type { CommandContext } from '../command-context.js';
import { describeShortfalls } from '../council-outcome.js';
import { createStyle } from '../create-style.js';
import { omitUndefined } from '../omit-undefined.js';
import { isSimulatedSession } from '../persist-session.js';
import type { PersistResult } from '../persist-session.js';
import { renderSessionText } from '../render-session-text.js';
import { renderJuryText } from '../render-verdict-text.js';
import { createCouncilProgressNotifier } from './council-progress-notifier.js';
import type { McpLog } from './tool-context.js';
import { toolContext } from './tool-context.js';
import { toolError } from './tool-error.js';
import { systemPromptSchema, temperatureSchema } from '../member-call-schemas.js';

export const consultCouncilInput = {
  query: z
    .string()
    .min(1, 'query is empty')
    .describe(
      'The question for the council (`council ask "<question>"`). Sent to the models, kept in the local history only (not with keepQuestion: false or history_questions: false), never logged.',
    ),
  members: z
    .array(z.string().min(1))
    .min(1, 'members is empty: give at least two model ids, or a pool (@name)')
    .max(
      MAX_COUNCIL_MEMBERS,
      `members has at most ${MAX_COUNCIL_MEMBERS} entries: a council has at most ${MAX_COUNCIL_MEMBERS} members`,
    )
    .optional()
    .describe(
      `Member model ids, e.g. ["openai/gpt-4o", "anthropic/claude-3.5-sonnet"], personality ids, a pool of config.yaml as "@name", or simulated:<name> for an offline trial. At least two members and at most ${MAX_COUNCIL_MEMBERS} in all (pools counted as their models). The CLI's --models. Default: with continueFrom, the members of that session; else LLM_COUNCIL_MODELS / the configuration.`,
    ),
  chairman: z
    .string()
    .min(1)
    .optional()
    .describe(
      'The model (or "@pool": its first model chairs, the rest are fallbacks) that synthesises (the CLI\'s --chairman). Default: with continueFrom and no members, the chairman of that session; else LLM_COUNCIL_CHAIRMAN, else the first member.',
    ),
  continueFrom: z
    .string()
    .min(1)
    .optional()
    .describe(
      "A follow-up (the CLI's --continue): the sessionId (or a unique prefix) of an earlier council, or \"last\". The council sees that session's answer as context, the new session joins its conversation, and it keeps that session's members, chairman and strategy unless members, chairman or strategy are given.",
    ),
  strategy: z
    .string()
    .min(1)
    .optional()
    .describe(
      "balanced, risk-averse, goal-seeking, novelty, or a key from the configuration (the CLI's --strategy). Default: with continueFrom, the strategy of that session.",
    ),
  goal: z.string().min(1).optional().describe('The goal for the goal-seeking strategy.'),
  system: systemPromptSchema
    .optional()
    .describe(
      "A system prompt for every member's answer (personalities keep their own): the CLI's --system. Default config.yaml's model_options.<id>.system.",
    ),
  temperature: temperatureSchema
    .optional()
    .describe(
      "Every call's temperature, 0 to 2: the CLI's -o temperature=…. Default config.yaml's model_options.<id>.temperature, else the model's own.",
    ),
  mode: z
    .enum(['consensus', 'voting'])
    .optional()
    .describe('consensus (a synthesis) or voting (the chairman names a winner).'),
  order: z
    .enum(['shared', 'per-reviewer', 'latin-square'])
    .optional()
    .describe('How answers are ordered for each reviewer.'),
  seed: z.number().int().min(0).optional().describe('Seeds the orders and labels.'),
  timeoutSeconds: z
    .number()
    .positive()
    .max(3600)
    .optional()
    .describe("Deadline of each model call, in seconds (the CLI's --timeout, there with a unit: 90s)."),
  retries: z
    .number()
    .int()
    .min(0)
    .max(10)
    .optional()
    .describe("Retries of a model call after a retryable failure. Default config.yaml's retries (2)."),
  org: z.string().min(1).optional().describe("Apply this organization's configuration. Default LLM_COUNCIL_ORG."),
  maxCostUsd: z
    .number()
    .positive()
    .optional()
    .describe(
      "As `council ask --max-cost`: stop before a stage whose estimated cost would take the session past this many US dollars, keeping what finished. Default config.yaml's max_cost_usd.",
    ),
  save: z
    .boolean()
    .optional()
    .describe(
      "false: save nothing (no history, bias records or telemetry): the CLI's --no-persist. Default true, as `council ask`.",
    ),
  keepQuestion: z
    .boolean()
    .optional()
    .describe(
      "false: save the session in the local history without its question (the CLI's --no-keep-question). Default true; a session never keeps a question that history_questions: false in config.yaml says not to.",
    ),
  verdict: z
    .enum(['binary', 'tie-breaker'])
    .optional()
    .describe(
      "Jury mode (the CLI's --verdict): each member decides approve, reject or unclear; the result's verdict is their Borda-weighted majority with the margin, who could flip it, and the chairman's dissent. tie-breaker: the chairman breaks an exact tie.",
    ),
  minMargin: z
    .number()
    .min(0)
    .max(1)
    .optional()
    .describe(
      'Jury mode: the smallest weighted margin (0 to 1) that decides; below it the verdict is unclear. Default 0.1.',
    ),
  evidence: z
    .array(z.object({ name: z.string().min(1).max(500), text: z.string().max(1_000_000) }))
    .max(50)
    .optional()
    .describe(
      "Material every member reads (the CLI's --evidence): a diff, logs, a document, as { name, text }. Scanned for secrets before anything is sent: a secret is a tool error naming item and line, unless redactSecrets.",
    ),
  redactSecrets: z
    .boolean()
    .optional()
    .describe("Replace secrets found in the evidence instead of refusing (the CLI's --redact-secrets)."),
};

const leaderboardEntry = z.object({
  candidate: z.string(),
  rank: z.number(),
  bordaScore: z.number(),
  voteCount: z.number(),
  winCount: z.number(),
  confidence: z
    .string()
    .describe(
      'Vote coverage: the share of the ballots that could rank this member that did (high from 80%, medium from 50%, else low). Not a confidence interval.',
    ),
});

export const consultCouncilOutput = {
  sessionId: z.string(),
  timestamp: z.string(),
  complete: z
    .boolean()
    .describe(
      'Whether the council produced what was asked: a synthesis, from reviews of which at least one could be read. False is a partial council (`council ask` exits 3): see shortfalls.',
    ),
  shortfalls: z
    .array(z.enum(['no-synthesis', 'not-ranked', 'no-review-read']))
    .describe(
      'What the session lacks, also when complete: no-synthesis (no chairman answered), not-ranked (no leaderboard: fewer than three answers, or no ballot), no-review-read (reviews came back but no ranking could be read from any).',
    ),
  synthesis: z.string().nullable(),
  chairman: z.string().nullable(),
  winner: z
    .string()
    .nullable()
    .describe("The chairman's winner in voting mode, else the sole leader of the Borda leaderboard (null on a tie)."),
  leaderboard: z.array(leaderboardEntry),
  excluded: z.array(z.object({ member: z.string(), stage: z.number(), reason: z.string(), message: z.string() })),
  biasIndicators: z
    .object({
      position_variance: z.number().nullable(),
      length_correlation: z.number().nullable(),
      reviewer_agreement: z.number().nullable(),
      flags: z.array(z.string()),
    })
    .nullable(),
  usage: z.object({ tokens: z.number(), costUsd: z.number().nullable() }),
  saved: z
    .object({ consent: z.number(), history: z.boolean(), biasRecords: z.number(), telemetryEvent: z.boolean() })
    .nullable(),
  simulated: z.boolean(),
  /** The conversation a follow-up belongs to (pass this session's id as continueFrom to ask the next question in it). */
  conversation: z.object({ id: z.string(), previousSessionId: z.string() }).nullable(),
  warnings: z.array(z.string()),
  verdict: z
    .object({
      decision: z.enum(['approve', 'reject', 'unclear']),
      reason: z.string(),
      margin: z.number(),
      flipSensitive: z.boolean(),
      pivotal: z.array(z.string()),
      votes: z.array(
        z.object({
          member: z.string(),
          decision: z.enum(['approve', 'reject', 'unclear']).nullable(),
          weight: z.number(),
          confidence: z.number().nullable(),
          reviewerFlags: z.array(z.string()),
        }),
      ),
      rationale: z.string().nullable(),
      dissent: z.string().nullable(),
    })
    .optional()
    .describe(
      'Jury mode only: the verdict, its reason and weighted margin (−1 to +1), the members whose single change of vote would flip it, each vote (null: the member failed) and the dissent.',
    ),
};

type ConsultCouncilInput = z.infer<z.ZodObject<typeof consultCouncilInput>>;
type ConsultCouncilOutput = z.infer<z.ZodObject<typeof consultCouncilOutput>>;

function winnerOf(session: CouncilSession): string | null {
  if (session.synthesis?.winner) return session.synthesis.winner;
  const leaders = session.leaderboard.filter((e) => e.finalRank === 1);
  return leaders.length === 1 ? leaders[0]!.candidate : null;
}

/** The structured result: what an agent needs to use the answer and to judge how far to trust it. */
export function consultCouncilResult(session: CouncilSession, saved: PersistResult | null): ConsultCouncilOutput {
  const outcome = sessionOutcome(session);
  return {
    sessionId: session.sessionId,
    timestamp: session.timestamp,
    complete: outcome.complete,
    shortfalls: outcome.shortfalls,
    synthesis: session.synthesis?.text.trim() ?? null,
    chairman: session.synthesis?.model ?? null,
    winner: winnerOf(session),
    leaderboard: session.leaderboard.map((e) => ({
      candidate: e.candidate,
      rank: e.finalRank,
      bordaScore: e.bordaScore,
      voteCount: e.voteCount,
      winCount: e.winCount,
      confidence: e.confidence,
    })),
    excluded: session.excluded.map((e) => ({ member: e.member, stage: e.stage, reason: e.reason, message: e.message })),
    biasIndicators:
      session.biasIndicators === null ? null : { ...session.biasIndicators, flags: [...session.biasIndicators.flags] },
    usage: { tokens: session.usage.tokens, costUsd: session.usage.costUsd },
    saved:
      saved === null
        ? null
        : {
            consent: saved.consent,
            history: saved.history,
            biasRecords: saved.biasRecords,
            telemetryEvent: saved.telemetryEvent,
          },
    simulated: isSimulatedSession(session),
    conversation: session.conversation ?? null,
    warnings: session.warnings,
    ...(session.verdict === undefined
      ? {}
      : {
          verdict: {
            decision: session.verdict.decision,
            reason: session.verdict.reason,
            margin: session.verdict.margin,
            flipSensitive: session.verdict.flipSensitive,
            pivotal: session.verdict.pivotal,
            votes: session.verdict.votes.map((v) => ({
              member: v.member,
              decision: v.decision,
              weight: v.weight,
              confidence: v.confidence,
              reviewerFlags: v.reviewerFlags,
            })),
            rationale: session.verdict.rationale,
            dissent: session.verdict.dissent,
          },
        }),
  };
}

/**
 * The readable text beside the structured result: a plain warning first when the council was partial (what it
 * lacks) or a member was dropped, then what `ask` prints.
 */
export function consultCouncilText(session: CouncilSession, result: ConsultCouncilOutput): string {
  const lines: string[] = [];
  const dropped = session.excluded.map((e) => `${e.member} (stage ${e.stage}, ${e.reason})`).join(', ');
  if (!result.complete) {
    lines.push(
      `PARTIAL COUNCIL: ${describeShortfalls(result)}.${dropped === '' ? '' : ` Dropped ${dropped}.`} The result below is what finished.`,
      '',
    );
  } else if (dropped !== '') {
    lines.push(`Dropped ${dropped}; the council went on with the members that answered.`, '');
  }
  lines.push(
    (
      renderSessionText({ session, style: createStyle(false), simulated: result.simulated }) +
      renderJuryText(session, createStyle(false))
    ).trimEnd(),
  );
  lines.push(
    '',
    `Session ${session.sessionId}${result.saved === null ? ' (not saved)' : result.saved.history ? ' (saved to the history)' : ' (nothing saved at consent level 0)'}.`,
  );
  return lines.join('\n');
}

/** One line when the cost cap stopped the council before a stage: the session's own note, and that it was saved. */
function costCapStop(session: CouncilSession, saved: PersistResult | null): string | null {
  const stage = session.costCap?.stoppedBeforeStage;
  if (stage === undefined || stage === null) return null;
  const note =
    session.warnings.find((w) => w.startsWith('Stopped by the cost cap')) ??
    `Stopped by the cost cap before stage ${stage}.`;
  return `Cost cap reached. ${note} Session ${session.sessionId}${saved?.history === true ? ' was saved with what finished' : ''}.`;
}

/** While a call is pending, how often a progress notification says who the council is waiting for. */
const HEARTBEAT_MS = 10_000;

/**
 * `consult_council`: runs a council exactly as `council ask` does (the same checks, configuration, models and
 * persistence), with progress notifications per stage and member when the client sent a progress token, and
 * the client's cancellation aborting the council's calls (nothing is saved, as when `ask` is interrupted).
 */
export function registerConsultCouncilTool(server: McpServer, options: { ctx: CommandContext; log: McpLog }): void {
  const { ctx, log } = options;
  server.registerTool(
    'consult_council',
    {
      title: 'Consult the council',
      description:
        "Ask several LLMs one question: they answer, review each other blind, and a chairman synthesises. Returns the synthesis, the winner, the leaderboard, members dropped, whether the council was complete and what it lacked (complete, shortfalls: a partial council is a result, not an error), per-session bias indicators, cost and the session id. Takes from seconds to minutes; sends progress notifications when given a progress token. The inputs are `council ask`'s options named as data: query is its question, members its --models, continueFrom its --continue, timeoutSeconds its --timeout, maxCostUsd its --max-cost, temperature its -o temperature=…, save: false its --no-persist, keepQuestion: false its --no-keep-question; the others keep their flag's name.",
      inputSchema: consultCouncilInput,
      outputSchema: consultCouncilOutput,
      annotations: { readOnlyHint: false, openWorldHint: true, idempotentHint: false },
    },
    async (input: ConsultCouncilInput, extra): Promise<CallToolResult> => {
      const token = extra._meta?.progressToken;
      const notifier =
        token === undefined
          ? undefined
          : createCouncilProgressNotifier({
              now: Date.now,
              send: (update) => {
                extra
                  .sendNotification({ method: 'notifications/progress', params: { progressToken: token, ...update } })
                  .catch((error: unknown) => log(`could not send progress: ${String(error)}`));
              },
            });
      const heartbeat =
        notifier === undefined ? undefined : setInterval(() => notifier.heartbeat(Date.now()), HEARTBEAT_MS);
      try {
        // Inside the try: a failed load is a tool error, and the heartbeat is cleared (it would keep the server alive).
        const { runAsk } = await import('../commands/ask-command.js');
        const { session, saved } = await runAsk(
          {
            question: input.query,
            ...omitUndefined({
              models: input.members,
              chairman: input.chairman,
              strategy: input.strategy,
              goal: input.goal,
              mode: input.mode,
              order: input.order,
              seed: input.seed,
              retries: input.retries,
              org: input.org,
              continueFrom: input.continueFrom,
              maxCostUsd: input.maxCostUsd,
              system: input.system,
              temperature: input.temperature,
              keepQuestion: input.keepQuestion,
              verdict: input.verdict,
              minMargin: input.minMargin,
              redactSecrets: input.redactSecrets,
            }),
            ...(input.timeoutSeconds === undefined ? {} : { timeoutMs: Math.round(input.timeoutSeconds * 1000) }),
            persist: input.save !== false,
            json: true,
          },
          toolContext(ctx, { log }),
          {
            abortSignal: extra.signal,
            membersInput: 'the members input',
            ...(input.evidence === undefined ? {} : { evidenceItems: input.evidence }),
            ...(notifier === undefined ? {} : { onEvent: notifier.onEvent }),
          },
        );
        const result = consultCouncilResult(session, saved);
        const stoppedBy = costCapStop(session, saved);
        // A council the cap stopped is saved as `ask` saves it; the call is a tool error that still carries what finished.
        if (stoppedBy !== null)
          return { isError: true, content: [{ type: 'text', text: stoppedBy }], structuredContent: result };
        return { content: [{ type: 'text', text: consultCouncilText(session, result) }], structuredContent: result };
      } catch (error) {
        return toolError(error, log);
      } finally {
        clearInterval(heartbeat);
      }
    },
  );
}
