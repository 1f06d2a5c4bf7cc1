import type { LanguageModelV1 } from '@council/providers';
import { CouncilError } from './council-error.js';
import type { CouncilMember, ResolvedMember } from './council-member.js';

function isModel(value: unknown): value is LanguageModelV1 {
  return (
    typeof value === 'object' && value !== null && typeof (value as { doGenerate?: unknown }).doGenerate === 'function'
  );
}

function resolveId(id: string, resolveModel: (id: string) => LanguageModelV1, role: string): LanguageModelV1 {
  try {
    return resolveModel(id);
  } catch (error) {
    throw new CouncilError({
      code: 'INVALID_OPTION',
      message: `${role} "${id}" cannot be resolved to a model: ${error instanceof Error ? error.message : String(error)}`,
      cause: error,
    });
  }
}

/** Turns a member option into a callable member; throws `INVALID_OPTION` naming the role when it cannot. */
export function resolveMember(
  member: CouncilMember,
  options: { resolveModel: (id: string) => LanguageModelV1; role: string },
): ResolvedMember {
  if (typeof member === 'string') {
    const id = member.trim();
    if (id === '')
      throw new CouncilError({
        code: 'INVALID_OPTION',
        message: `${options.role} is an empty model id; pass a model id such as "openrouter:openai/gpt-4o".`,
      });
    return { id, modelId: id, model: resolveId(id, options.resolveModel, options.role), systemPrompt: undefined };
  }
  if (isModel(member)) return { id: member.modelId, modelId: member.modelId, model: member, systemPrompt: undefined };
  if (
    typeof member === 'object' &&
    member !== null &&
    typeof member.id === 'string' &&
    member.id.trim() !== '' &&
    (typeof member.model === 'string' || isModel(member.model))
  ) {
    const model =
      typeof member.model === 'string' ? resolveId(member.model, options.resolveModel, options.role) : member.model;
    const modelId = typeof member.model === 'string' ? member.model : member.model.modelId;
    const systemPrompt =
      typeof member.systemPrompt === 'string' && member.systemPrompt.trim() !== '' ? member.systemPrompt : undefined;
    return { id: member.id.trim(), modelId, model, systemPrompt };
  }
  throw new CouncilError({
    code: 'INVALID_OPTION',
    message: `${options.role} must be a model id, a LanguageModelV1, a personality or { id, model }; got ${member === null ? 'null' : typeof member}.`,
  });
}
