import { MAX_COUNCIL_MEMBERS } from '@council/core';
import * as z from 'zod';
import { systemPromptSchema, temperatureSchema } from '../member-call-schemas.js';

// The zod schemas of `council serve`'s API: requests are validated with them, responses are tested against
// them, and `GET /api/openapi.json` is generated from them (openapi-document.ts).

const isoDate = (field: string) =>
  z
    .string()
    .regex(
      /^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/,
      `${field} must be an ISO 8601 date such as 2026-11-22 or 2026-11-22T12:00:00Z`,
    )
    .refine((text) => !Number.isNaN(Date.parse(text)), `${field} is no real date`);

/** A positive integer given in a query string. */
const countParam = (field: string, max: number) =>
  z
    .string()
    .regex(/^\d+$/, `${field} must be a whole number`)
    .transform(Number)
    .pipe(z.number().int().min(1, `${field} must be at least 1`).max(max, `${field} must be at most ${max}`));

export const errorBodySchema = z.object({
  error: z.object({ code: z.string(), message: z.string() }),
});

export const sessionRequestSchema = z.strictObject({
  query: z.string().min(1, 'query must not be empty').max(100_000, 'query must be at most 100,000 characters'),
  members: z
    .array(z.string().min(1).max(200))
    .min(1)
    .max(
      MAX_COUNCIL_MEMBERS,
      `members has at most ${MAX_COUNCIL_MEMBERS} entries: a council has at most ${MAX_COUNCIL_MEMBERS} members`,
    )
    .optional()
    .describe(
      `Model ids, personality ids or "@pool"; default: the configured members. At most ${MAX_COUNCIL_MEMBERS} members in all, pools counted as their models.`,
    ),
  chairman: z.string().min(1).max(200).optional(),
  strategy: z.string().min(1).max(100).optional(),
  goal: z.string().min(1).max(10_000).optional(),
  mode: z.enum(['consensus', 'voting']).optional(),
  seed: z.union([z.number().int().safe(), z.string().min(1).max(200)]).optional(),
  continueFrom: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .describe('A previous session id: a follow-up in the same conversation.'),
  system: systemPromptSchema
    .optional()
    .describe(
      "A system prompt for every member's answer (personalities keep their own): `council ask --system`. Default: config.yaml's model_options.<id>.system.",
    ),
  temperature: temperatureSchema
    .optional()
    .describe(
      "Every call's temperature, 0 to 2: `council ask -o temperature=…`. Default: config.yaml's model_options.<id>.temperature, else the model's own.",
    ),
  keepQuestion: z
    .boolean({ error: 'keepQuestion must be true or false' })
    .optional()
    .describe(
      'false: the local history keeps this session without its question (`council ask --no-keep-question`). Default true; a session never keeps a question that history_questions: false in config.yaml says not to.',
    ),
  verdict: z
    .enum(['binary', 'tie-breaker'], { error: 'verdict must be "binary" or "tie-breaker"' })
    .optional()
    .describe(
      "Jury mode (`council ask --verdict`): each member decides approve, reject or unclear; the session's verdict is their Borda-weighted majority, with the chairman's dissent. tie-breaker: the chairman breaks an exact tie.",
    ),
  minMargin: z
    .number({ error: 'minMargin must be a number from 0 to 1, e.g. 0.2' })
    .min(0, 'minMargin must be from 0 to 1, e.g. 0.2')
    .max(1, 'minMargin must be from 0 to 1, e.g. 0.2')
    .optional()
    .describe('Jury mode: the smallest weighted margin that decides (`--min-margin`). Default 0.1.'),
  evidence: z
    .array(
      z.strictObject({
        name: z.string().min(1).max(500),
        text: z.string().max(1_000_000, 'an evidence text must be at most 1,000,000 characters'),
      }),
    )
    .max(50, 'evidence has at most 50 items')
    .optional()
    .describe(
      'Material every member reads (`--evidence`), after the question between boundary markers, capped per prompt. Scanned for secrets first: a secret refuses the run (400) unless redactSecrets.',
    ),
  redactSecrets: z
    .boolean({ error: 'redactSecrets must be true or false' })
    .optional()
    .describe('Replace secrets found in the evidence instead of refusing the run (`--redact-secrets`).'),
});

export const sessionStartedSchema = z.object({
  id: z.string().describe('The session id: its event stream now, and its id in the history once it is saved.'),
  events: z.string(),
});

/** `GET /api/sessions/{id}` while the session runs (202): where to follow it; the same path answers 200 once it is saved. */
export const sessionRunningSchema = z.object({ id: z.string(), running: z.literal(true), events: z.string() });

export const cancelResponseSchema = z.object({ status: z.literal('cancelling') });

export const sessionListQuerySchema = z.strictObject({
  model: z.string().min(1).max(200).optional(),
  from: isoDate('from').optional(),
  to: isoDate('to').optional(),
  limit: countParam('limit', 500).optional(),
  before: z.string().min(1).max(200).optional(),
  q: z
    .string()
    .min(1)
    .max(500)
    .optional()
    .describe('Only sessions whose question contains every word of this text (case-insensitive).'),
});

export const sessionSummarySchema = z.object({
  id: z
    .string()
    .describe(
      'The session id: the one POST /api/sessions returned, for its event stream while it runs and in the history after.',
    ),
  timestamp: z.string(),
  title: z
    .string()
    .nullable()
    .describe(
      "The question's first line (cut at 72 characters); null while running and when the history kept no question.",
    ),
  conversation: z.string().nullable(),
  previousSessionId: z.string().nullable().describe('The session a follow-up continues; null for a first question.'),
  members: z.array(z.string()),
  chairman: z.string().nullable(),
  strategy: z.string().nullable(),
  mode: z.enum(['consensus', 'voting']).nullable(),
  winner: z.string().nullable(),
  contributors: z.array(z.object({ id: z.string(), weight: z.number() })).nullable(),
  category: z.string().nullable(),
  running: z.boolean(),
});

export const sessionListSchema = z.object({
  sessions: z.array(sessionSummarySchema),
  next: z.string().nullable().describe('Pass as before= for the next page; null on the last.'),
});

/** `sessionDocument(session)`, the JSON of `council ask --json` (its inner fields are documented there). */
export const sessionDocumentSchema = z.looseObject({
  sessionId: z.string(),
  timestamp: z.string(),
  config: z.looseObject({}),
  stage1: z.array(z.looseObject({ member: z.string(), model: z.string() })),
  stage2: z.array(z.looseObject({ reviewer: z.string() })),
  leaderboard: z.array(z.looseObject({})),
  synthesis: z.looseObject({ text: z.string() }).nullable(),
  complete: z
    .boolean()
    .describe(
      'Whether the session produced what was asked: a synthesis (for a session run without one, a ranking) from reviews of which at least one could be read. `council ask` exits 3 when false.',
    ),
  shortfalls: z
    .array(z.enum(['no-synthesis', 'not-ranked', 'no-review-read']))
    .describe(
      'What the session lacks, also when complete: no-synthesis (no chairman answered), not-ranked (no leaderboard: fewer than three answers, or no ballot), no-review-read (reviews came back but no ranking could be read from any).',
    ),
});

export const sessionResponseSchema = z.object({
  session: sessionDocumentSchema,
  question: z
    .string()
    .nullable()
    .describe(
      'The question as the local history kept it; null with history_questions: false, keepQuestion: false or an older line.',
    ),
});

export const configResponseSchema = z.object({
  demo: z.boolean(),
  members: z.array(z.string()),
  chairman: z.string().nullable(),
  pools: z.record(z.string(), z.array(z.string())),
  strategies: z.array(z.string()),
  defaultStrategy: z.string(),
  modes: z.tuple([z.literal('consensus'), z.literal('voting')]),
  defaultMode: z.enum(['consensus', 'voting']),
  modeToggle: z.boolean(),
  defaultVerdict: z
    .enum(['binary', 'tie-breaker'])
    .nullable()
    .describe(
      "config.yaml's verdict: the jury mode a session runs in when POST /api/sessions names none; null: the council answers.",
    ),
  models: z.array(z.string()),
  persist: z.object({ consent: z.number().int(), biasRecords: z.boolean() }),
});

/** The document of `council leaderboard --json`. */
export const leaderboardResponseSchema = z.looseObject({
  sessions: z.number().int(),
  window: z.object({ since: z.string().nullable(), until: z.string() }),
  category: z.string().nullable(),
  borda: z.array(z.looseObject({ candidate: z.string() })),
  bradleyTerry: z.array(z.looseObject({ candidate: z.string() })),
});

export const windowQuerySchema = z.strictObject({
  last: countParam('last', 1_000_000).optional(),
  since: isoDate('since').optional(),
});

/**
 * `/api/bias-report`'s query: the window; `calibrated=true` for issue 31's figures (`bias-report --calibrated`), and
 * with it `style=false` to leave out the style-controlled fit, whose bootstrap is the slow part.
 */
export const biasReportQuerySchema = windowQuerySchema.extend({
  calibrated: z.enum(['true', 'false']).optional(),
  style: z.enum(['true', 'false']).optional(),
});

/** The document of `council bias-report --format json`. */
export const biasReportResponseSchema = z.looseObject({
  kind: z.literal('council-bias-report'),
  schemaVersion: z.literal(1),
  generatedAt: z.string(),
  simulated: z.boolean(),
  report: z.looseObject({}),
});

/** The document of `council contributions --json` (computeContributionsReport). */
export const contributionsResponseSchema = z.looseObject({
  sessions: z.number().int(),
  members: z.array(
    z.looseObject({
      member: z.string(),
      sessions: z.number().int(),
      credited: z.number().int(),
      meanWeight: z.looseObject({
        estimate: z.number().nullable(),
        lower: z.number().nullable(),
        upper: z.number().nullable(),
      }),
      wins: z.number().int(),
    }),
  ),
});

const stage = z.union([z.literal(1), z.literal(2), z.literal(3)]);

/** The data of each event type on `GET /api/sessions/:id/events`. */
export const streamEventDataSchemas = {
  'stage-started': z.object({ stage, calls: z.number().int() }),
  'stage-finished': z.object({
    stage,
    succeeded: z.number().int(),
    failed: z.number().int(),
    unread: z
      .number()
      .int()
      .optional()
      .describe('Stage 2: reviews that answered but gave no ranking that could be read.'),
  }),
  'model-started': z.object({ stage, member: z.string(), model: z.string() }),
  'model-queued': z
    .object({ stage, member: z.string(), model: z.string() })
    .describe('The call waits for a free slot of its endpoint; its deadline runs from model-dispatched.'),
  'model-dispatched': z.object({ stage, member: z.string(), model: z.string() }).describe('A queued call was sent.'),
  'model-finished': z.object({ stage, member: z.string(), model: z.string(), latencyMs: z.number() }),
  'model-failed': z.object({ stage, member: z.string(), model: z.string(), reason: z.string(), message: z.string() }),
  'model-retried': z.object({ stage, member: z.string(), model: z.string(), previous: z.string(), reason: z.string() }),
  usage: z.object({ tokens: z.number(), costUsd: z.number().nullable() }),
  answer: z.object({ member: z.string(), model: z.string(), text: z.string(), latencyMs: z.number() }),
  review: z.object({
    reviewer: z.string(),
    model: z.string(),
    ranking: z.array(z.string()),
    scores: z.record(z.string(), z.number()).nullable(),
    critiques: z
      .record(z.string(), z.object({ strengths: z.string(), weaknesses: z.string() }))
      .nullable()
      .describe('What the reviewer said of each answer, by the label it saw; null when it gave no critique.'),
  }),
  'synthesis-text': z.object({ chairman: z.string(), text: z.string() }),
  session: z.object({
    session: sessionDocumentSchema,
    saved: z
      .object({
        consent: z.number(),
        biasRecords: z.number(),
        history: z.boolean(),
        telemetryEvent: z.boolean(),
        notes: z.array(z.string()),
      })
      .nullable(),
  }),
  error: z.object({ code: z.string(), message: z.string() }),
  cancelled: z.object({}),
  done: z.object({ status: z.enum(['finished', 'failed', 'cancelled']) }),
} as const;

/** The first problem of a failed parse, naming its field: `members.0: expected string, received number`. */
export function describeInvalidInput(error: z.ZodError): string {
  const issue = error.issues[0];
  if (issue === undefined) return 'The request is invalid.';
  const field = issue.path.map(String).join('.');
  return field === '' ? issue.message : `${field}: ${issue.message}`;
}
