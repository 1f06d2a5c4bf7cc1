import type { LanguageModelV1 } from '@council/providers';
import type { Personality } from './personality.js';

/**
 * A council member: a model id (resolved with `resolveModel`), a `LanguageModelV1` (its `modelId`
 * is the member id), a `Personality`, or an explicit `{ id, model, systemPrompt? }`.
 */
export type CouncilMember =
  string | LanguageModelV1 | Personality | { id: string; model: string | LanguageModelV1; systemPrompt?: string };

/** A member ready to call. */
export interface ResolvedMember {
  id: string;
  /** The model id recorded in the session. */
  modelId: string;
  model: LanguageModelV1;
  systemPrompt: string | undefined;
}
