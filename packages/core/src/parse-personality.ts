import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import * as z from 'zod';
import { CouncilError } from './council-error.js';
import type { Personality } from './personality.js';

/** The on-disk (snake_case) shape of a personality file. */
export const personalityFileSchema = z
  .object({
    id: z.string().regex(/^[a-z0-9][a-z0-9_.-]*$/i, 'must be letters, digits, ".", "-" or "_", starting with a letter or digit').max(100),
    name: z.string().min(1),
    model: z.string().min(1),
    system_prompt: z.string().min(1),
    traits: z.array(z.string().min(1)).optional(),
    parents: z.array(z.string().min(1)).optional(),
  })
  .strict();

const acceptedKeys = 'id, name, model, system_prompt, traits (list of strings), parents (list of ids)';

/** Validates a personality object in its on-disk shape; throws `PERSONALITY_INVALID` naming `source` and the key. */
export function personalityFromData(data: unknown, source: string): Personality {
  const result = personalityFileSchema.safeParse(data);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => {
      const key = issue.path.length > 0 ? issue.path.join('.') : '(top level)';
      if (issue.code === 'unrecognized_keys') return `unknown key ${issue.keys.map((k) => `"${k}"`).join(', ')}; accepted keys: ${acceptedKeys}`;
      if (issue.code === 'invalid_type' && issue.path.length === 0) return `must be a mapping with keys ${acceptedKeys}`;
      return `"${key}" ${issue.message}`;
    });
    throw new CouncilError({ code: 'PERSONALITY_INVALID', message: `${source}: invalid personality: ${problems.join('; ')}.` });
  }
  const file = result.data;
  const personality: Personality = { id: file.id, name: file.name, model: file.model, systemPrompt: file.system_prompt };
  if (file.traits) personality.traits = file.traits;
  if (file.parents) personality.parents = file.parents;
  return personality;
}

/** Reads a personality from YAML text; `source` (a file path) names it in errors, with the line of a YAML syntax error. */
export function parsePersonality(text: string, source: string): Personality {
  let data: unknown;
  try {
    data = parseYaml(text, { prettyErrors: true });
  } catch (error) {
    const line = (error as { linePos?: Array<{ line: number }> }).linePos?.[0]?.line;
    throw new CouncilError({
      code: 'PERSONALITY_INVALID',
      message: `${source}${line === undefined ? '' : `:${line}`}: not valid YAML (${error instanceof Error ? error.message.split('\n')[0] : String(error)}). Fix the syntax and try again.`,
      cause: error,
    });
  }
  return personalityFromData(data, source);
}

/** Like `parsePersonality`, but returns the error instead of throwing it. */
export function safeParsePersonality(text: string, source: string): { success: true; value: Personality } | { success: false; error: CouncilError } {
  try {
    return { success: true, value: parsePersonality(text, source) };
  } catch (error) {
    if (CouncilError.isInstance(error)) return { success: false, error };
    throw error;
  }
}

/** The YAML text of a personality, snake_case keys, ready to write to `personalities/<id>.yaml`. */
export function stringifyPersonality(personality: Personality): string {
  const data: Record<string, unknown> = { id: personality.id, name: personality.name, model: personality.model, system_prompt: personality.systemPrompt };
  if (personality.traits) data.traits = personality.traits;
  if (personality.parents) data.parents = personality.parents;
  return stringifyYaml(data, { lineWidth: 0 });
}
