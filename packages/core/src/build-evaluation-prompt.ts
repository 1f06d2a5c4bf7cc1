import type { CouncilConfig } from './council-config.js';
import { fillTemplate } from './fill-template.js';

export interface BuildEvaluationPromptOptions {
  config: Pick<CouncilConfig, 'evaluationPrompt' | 'rankingEnforcedOutputFormat'>;
  query: string;
  /** The answers in presentation order, with their labels (label order = display order). */
  entries: ReadonlyArray<{ label: string; text: string }>;
  /** The session's boundary token. */
  boundary: string;
  /** Ask for the reply as JSON (the call carries `reviewResponseFormat`) instead of the configured text format. */
  structured?: boolean;
}

/** The output instructions of a structured review, in place of `ranking_enforced_output_format`. */
export function structuredOutputFormat(labels: readonly string[]): string {
  return `IMPORTANT: Reply with one JSON object and nothing else. Under "evaluations", give one entry for each response (${labels.join(', ')}), with its "response" label, its "strengths" (what it does well), its "weaknesses" (what is missing or incorrect) and a "score", an integer from 1 (poor) to 10 (excellent). Then give "ranking": every label once, best first.`;
}

/**
 * The stage-2 unified evaluation prompt (design doc §4.2). Each answer is a block opened by the line
 * `<<<{boundary} {label}>>>` and closed by `<<<{boundary} END>>>`; the texts around the blocks come from
 * the configuration (`evaluation_prompt`, `ranking_enforced_output_format`), which asks for strengths,
 * weaknesses and a 1–10 score per response, a fenced JSON ranking and a `FINAL RANKING:` list. With `structured`,
 * the output instructions ask for the JSON object of `reviewResponseFormat` instead (the rest is the same).
 */
export function buildEvaluationPrompt(options: BuildEvaluationPromptOptions): string {
  const { entries, boundary } = options;
  const labels = entries.map((e) => e.label);
  const responses = entries.map((e) => `<<<${boundary} ${e.label}>>>\n${e.text}\n<<<${boundary} END>>>`).join('\n\n');
  const exampleJson = `{"ranking": [${labels.map((_, i) => `"<${ordinal(i + 1)} best label>"`).join(', ')}], "scores": {${labels.map((l) => `"${l}": <1-10>`).join(', ')}}}`;
  const exampleList = labels.map((_, i) => `${i + 1}. <${ordinal(i + 1)} best label>`).join('\n');
  const outputFormat = options.structured
    ? structuredOutputFormat(labels)
    : fillTemplate(options.config.rankingEnforcedOutputFormat, {
        labels: labels.join(', '),
        example_json: exampleJson,
        example_list: exampleList,
      });
  return fillTemplate(options.config.evaluationPrompt, {
    query: options.query,
    responses,
    count: String(entries.length),
    labels: labels.join(', '),
    output_format: outputFormat,
  });
}

function ordinal(n: number): string {
  const suffix = n % 100 >= 11 && n % 100 <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${suffix}`;
}
