import { stringify as stringifyYaml } from 'yaml';
import * as z from 'zod';
import { CouncilError } from './council-error.js';
import { describeYamlLocation, parseYamlSource } from './parse-yaml-source.js';
import type { YamlSource } from './parse-yaml-source.js';
import type { Personality } from './personality.js';

/** The on-disk (snake_case) shape of a personality file. */
export const personalityFileSchema = z
  .object({
    id: z
      .string()
      .regex(/^[a-z0-9][a-z0-9_.-]*$/i, 'must be letters, digits, ".", "-" or "_", starting with a letter or digit')
      .max(100),
    name: z.string().min(1),
    model: z.string().min(1),
    system_prompt: z.string().min(1),
    traits: z.array(z.string().min(1)).optional(),
    parents: z.array(z.string().min(1)).optional(),
  })
  .strict();

const acceptedKeys = 'id, name, model, system_prompt, traits (list of strings), parents (list of ids)';

/** A key path as a message names it: `"traits.0" (line 5)` when `locate` finds it (see `describeYamlLocation`). */
function describeKey(path: readonly PropertyKey[], locate: YamlSource['locate'] | undefined): string {
  const located = locate?.(path);
  return located === undefined ? `"${path.map(String).join('.')}"` : describeYamlLocation(located);
}

/**
 * Validates a personality object in its on-disk shape; throws `PERSONALITY_INVALID` naming `source` and the key (with
 * its line when `locate`, from the YAML text, is given). Values are never quoted: only key names, when plain.
 */
export function personalityFromData(data: unknown, source: string, locate?: YamlSource['locate']): Personality {
  const result = personalityFileSchema.safeParse(data);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => {
      if (issue.code === 'unrecognized_keys')
        return `unknown key ${issue.keys.map((k) => describeKey([...issue.path, k], locate)).join(', ')}; accepted keys: ${acceptedKeys}`;
      if (issue.code === 'invalid_type' && issue.path.length === 0)
        return `must be a mapping with keys ${acceptedKeys}`;
      return `${issue.path.length > 0 ? describeKey(issue.path, locate) : '(top level)'} ${issue.message}`;
    });
    throw new CouncilError({
      code: 'PERSONALITY_INVALID',
      message: `${source}: invalid personality: ${problems.join('; ')}.`,
    });
  }
  const file = result.data;
  const personality: Personality = {
    id: file.id,
    name: file.name,
    model: file.model,
    systemPrompt: file.system_prompt,
  };
  if (file.traits) personality.traits = file.traits;
  if (file.parents) personality.parents = file.parents;
  return personality;
}

/**
 * Reads a personality from YAML text; `source` (a file path) names it in errors, with the line and column of a YAML
 * syntax error and the line of a bad key — never the text (the file may be a symlink to one that is not Council's).
 */
export function parsePersonality(text: string, source: string): Personality {
  const parsed = parseYamlSource(text);
  if (!parsed.success) {
    const { line, column, problem } = parsed.error;
    throw new CouncilError({
      code: 'PERSONALITY_INVALID',
      message: `${source}${line === undefined ? '' : `:${line}`}: not valid YAML (${problem}${column === undefined ? '' : ` at line ${line}, column ${column}`}). Fix the syntax and try again.`,
    });
  }
  return personalityFromData(parsed.value.data, source, parsed.value.locate);
}

/** Like `parsePersonality`, but returns the error instead of throwing it. */
export function safeParsePersonality(
  text: string,
  source: string,
): { success: true; value: Personality } | { success: false; error: CouncilError } {
  try {
    return { success: true, value: parsePersonality(text, source) };
  } catch (error) {
    if (CouncilError.isInstance(error)) return { success: false, error };
    throw error;
  }
}

/** The YAML text of a personality, snake_case keys, ready to write to `personalities/<id>.yaml`. */
export function stringifyPersonality(personality: Personality): string {
  const data: Record<string, unknown> = {
    id: personality.id,
    name: personality.name,
    model: personality.model,
    system_prompt: personality.systemPrompt,
  };
  if (personality.traits) data.traits = personality.traits;
  if (personality.parents) data.parents = personality.parents;
  return stringifyYaml(data, { lineWidth: 0 });
}
