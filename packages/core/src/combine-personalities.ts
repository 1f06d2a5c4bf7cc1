import type { LanguageModelV1 } from '@council/providers';
import type { CouncilConfig } from './council-config.js';
import { CouncilError } from './council-error.js';
import { defaultConfig } from './default-config.js';
import { fillTemplate } from './fill-template.js';
import type { FeedbackSummary } from './generate-feedback-summary.js';
import { personalityFromData } from './parse-personality.js';
import type { Personality } from './personality.js';
import { parseYamlSource } from './parse-yaml-source.js';
import { promptModel } from './prompt-model.js';

export interface CombinePersonalitiesOptions {
  /** The model that designs the offspring. */
  model: LanguageModelV1;
  /** Supplies `evolutionPrompt`; default the built-in one. */
  config?: Pick<CouncilConfig, 'evolutionPrompt'>;
  timeoutMs?: number;
  abortSignal?: AbortSignal;
}

function describeParents(parents: readonly Personality[]): string {
  return parents
    .map(
      (p) =>
        `## ${p.id} (${p.name})\nmodel id: ${p.model}\n${p.traits?.length ? `traits: ${p.traits.join(', ')}\n` : ''}system prompt:\n${p.systemPrompt}`,
    )
    .join('\n\n');
}

function describeFeedback(parents: readonly Personality[], feedback: readonly FeedbackSummary[]): string {
  return parents
    .map((p) => {
      const f = feedback.find((x) => x.personalityId === p.id);
      if (!f || f.reviews === 0) return `## ${p.id}\n(no peer feedback yet)`;
      const list = (items: FeedbackSummary['strengths']) =>
        items.length ? items.map((t) => `- ${t.theme} (${t.count}×)`).join('\n') : '- (none)';
      return `## ${p.id} (${f.reviews} peer reviews in ${f.sessions} sessions)\nStrengths:\n${list(f.strengths)}\nWeaknesses:\n${list(f.weaknesses)}${f.summary ? `\nSummary: ${f.summary}` : ''}`;
    })
    .join('\n\n');
}

/** The last fenced block of a reply (yaml, json or untagged), or the whole reply when it has none. */
function lastBlock(text: string): string {
  const blocks = [...text.matchAll(/```[a-zA-Z]*[^\n]*\n([\s\S]*?)```/g)];
  return blocks.length > 0 ? blocks[blocks.length - 1]![1]! : text;
}

/**
 * Personality evolution (design doc §4.3): asks `model`, with the `evolution_prompt`, to combine two or
 * more parents using their peer feedback, and returns the validated offspring with its lineage
 * (`parents`: the parents' ids; `model` defaults to the first parent's when the reply omits it).
 * Throws `INVALID_OPTION` for fewer than two parents, `MODEL_FAILED` when the call fails, and
 * `PERSONALITY_INVALID` when the reply is not a valid personality.
 */
export async function combinePersonalities(
  parents: readonly Personality[],
  feedback: readonly FeedbackSummary[],
  modelOrOptions: LanguageModelV1 | CombinePersonalitiesOptions,
): Promise<Personality> {
  const options: CombinePersonalitiesOptions =
    'doGenerate' in modelOrOptions ? { model: modelOrOptions } : modelOrOptions;
  if (parents.length < 2)
    throw new CouncilError({
      code: 'INVALID_OPTION',
      message: `Evolution needs at least two parent personalities (got ${parents.length}).`,
    });
  const ids = parents.map((p) => p.id);
  if (new Set(ids).size !== ids.length)
    throw new CouncilError({
      code: 'INVALID_OPTION',
      message: `The parents must be different personalities (got ${ids.join(', ')}).`,
    });
  const prompt = fillTemplate((options.config ?? defaultConfig).evolutionPrompt, {
    parents: describeParents(parents),
    feedback: describeFeedback(parents, feedback),
  });
  const reply = await promptModel(options, {
    text: prompt,
    defaultTimeoutMs: 180_000,
    task: 'evolution',
    remedy: 'Retry, or pick another model.',
  });
  const source = `the evolution model's reply (${options.model.modelId})`;
  // Read as files are (no library warnings on stderr), the mistake said by its line and kind.
  const parsed = parseYamlSource(lastBlock(reply));
  if (!parsed.success) {
    const { line, column, problem } = parsed.error;
    throw new CouncilError({
      code: 'PERSONALITY_INVALID',
      message: `${source} is not valid YAML: ${problem}${line === undefined ? '' : ` at line ${line}, column ${column ?? 1}`}. Retry the evolution.`,
    });
  }
  const data: unknown = parsed.value.data;
  if (typeof data === 'object' && data !== null && !Array.isArray(data)) {
    const record = data as Record<string, unknown>;
    record.model ??= parents[0]!.model;
    record.parents = ids;
  }
  const child = personalityFromData(data, source);
  if (ids.includes(child.id))
    throw new CouncilError({
      code: 'PERSONALITY_INVALID',
      message: `${source}: the new personality reuses its parent's id "${child.id}"; it needs a new id. Retry the evolution.`,
    });
  return child;
}
