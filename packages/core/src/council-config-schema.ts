import * as z from 'zod';
import { orderModes } from './order-mode.js';

const positiveMs = z.number().int().positive().max(3_600_000);

function requirePlaceholders(value: string, names: readonly string[], ctx: z.RefinementCtx): void {
  for (const name of names) {
    if (!value.includes(`{${name}}`))
      ctx.addIssue({ code: 'custom', message: `must contain the placeholder {${name}}` });
  }
}

function template(required: readonly string[], mustContain?: string) {
  return z.string().superRefine((value, ctx) => {
    requirePlaceholders(value, required, ctx);
    if (mustContain !== undefined && !value.includes(mustContain))
      ctx.addIssue({ code: 'custom', message: `must contain the text "${mustContain}"` });
  });
}

/**
 * One layer of the configuration cascade, camelCase, every key optional. Files are read in
 * snake_case and mapped onto this schema by the loader; explicit options are checked with it as is.
 */
export const councilConfigLayerSchema = z
  .object({
    evaluationPrompt: template(['query', 'responses']),
    rankingEnforcedOutputFormat: template([], 'FINAL RANKING'),
    consensusPrompt: template(['query', 'responses', 'directive', 'attribution_format']),
    attributionFormat: template([], 'contributors'),
    votingInstruction: z.string(),
    evolutionPrompt: template(['parents', 'feedback']),
    feedbackSummaryPrompt: template(['personality', 'themes']),
    juryPrompt: template(['query']),
    juryChairmanPrompt: template(['votes', 'verdict']),
    followUpPrompt: template(['previous_answer', 'query', 'boundary']),
    strategies: z.record(
      z.string().regex(/^[a-z0-9][a-z0-9_-]*$/i, 'must be letters, digits, "-" or "_"'),
      z.string().min(1),
    ),
    strategy: z.string().min(1),
    mode: z.enum(['consensus', 'voting']),
    modeToggle: z.boolean(),
    verdict: z.enum(['binary', 'tie-breaker']),
    verdictMinMargin: z.number().min(0).max(1),
    order: z.enum(orderModes as [string, ...string[]]),
    quorum: z.number().int().min(1),
    excludeSelfVotes: z.boolean(),
    selfReview: z.enum(['include', 'omit']),
    biasAudit: z.boolean(),
    biasPersistence: z.boolean(),
    historyQuestions: z.boolean(),
    timeouts: z.object({ stage1Ms: positiveMs, stage2Ms: positiveMs, stage3Ms: positiveMs }).partial().strict(),
    retries: z.number().int().min(0).max(10),
    maxCostUsd: z.number().positive(),
    maxReplyBytes: z
      .number()
      .int()
      .min(1024)
      .max(1024 * 1024 * 1024),
    structuredReviews: z.boolean(),
    providers: z.record(
      z
        .string()
        .regex(
          /^[a-z][a-z0-9-]*$/,
          'must be a provider name as written in model ids (lower-case letters, digits and "-"), e.g. ollama',
        ),
      z
        .object({ maxConcurrency: z.number().int().min(1).max(256) })
        .partial()
        .strict(),
    ),
    modelOptions: z.record(
      z.string().min(1),
      z
        .object({ system: z.string().min(1), temperature: z.number().min(0).max(2) })
        .partial()
        .strict(),
    ),
    pools: z.record(
      z.string().regex(/^[a-z0-9][a-z0-9_-]*$/i, 'must be letters, digits, "-" or "_"'),
      z.array(z.string().min(1)).min(1, 'must name at least one model'),
    ),
    members: z.array(z.string().min(1)),
    chairman: z.string().min(1),
    chairmanFallbacks: z.array(z.string().min(1)),
  })
  .partial()
  .strict();
