import * as z from 'zod';
import type { CouncilCallContext } from './council-call-context.js';
import type { GenerateOptions } from './language-model-v1.js';
import { ProviderError } from './provider-error.js';

/**
 * The simulated provider's own per-call options, `providerOptions.simulated` (every other provider ignores this
 * namespace and sends nothing of it). `@council/core` sets it on every call it makes.
 */
// A type, not an interface, so that a value of it fits `providerOptions`' `Record<string, unknown>` namespaces.
export type SimulatedProviderOptions = {
  /** The council stage the call plays and the answers its prompt shows; without it the call is a question to answer. */
  council?: CouncilCallContext;
};

const text = z.string();

// Strict objects: a misspelt key would otherwise be dropped, and every stage would quietly play as an answer.
const councilSchema = z.discriminatedUnion('stage', [
  z.strictObject({ stage: z.literal('answer') }),
  z.strictObject({
    stage: z.literal('review'),
    responses: z.array(z.strictObject({ label: text, text })),
  }),
  z.strictObject({
    stage: z.literal('chairman'),
    answers: z.array(z.strictObject({ id: text, text })),
  }),
]);

const optionsSchema = z.strictObject({ council: councilSchema.optional() });

/** Where an issue is, as a reader writes it: `council.responses[0].label`. */
function issuePath(path: readonly PropertyKey[]): string {
  return path.reduce<string>(
    (out, key) => (typeof key === 'number' ? `${out}[${key}]` : `${out}.${String(key)}`),
    'providerOptions.simulated',
  );
}

/**
 * Reads and checks `providerOptions.simulated` of a call to the simulated model `modelId`. Absent options are `{}`;
 * malformed ones throw a `ProviderError` (`INVALID_SETTINGS`) that says which field is wrong and what it should be.
 */
export function parseSimulatedProviderOptions(
  providerOptions: GenerateOptions['providerOptions'],
  modelId: string,
): SimulatedProviderOptions {
  const own = providerOptions?.simulated;
  if (own === undefined) return {};
  const parsed = optionsSchema.safeParse(own);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => `${issuePath(issue.path)}: ${issue.message}`).join('; ');
  throw new ProviderError({
    code: 'INVALID_SETTINGS',
    message: `The call to simulated:${modelId} has malformed providerOptions.simulated (${problems}). It takes { council?: { stage: 'answer' } | { stage: 'review', responses: [{ label, text }] } | { stage: 'chairman', answers: [{ id, text }] } }.`,
  });
}
