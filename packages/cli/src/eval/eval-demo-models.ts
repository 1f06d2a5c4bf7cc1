import type { GenerateOptions, LanguageModelV1 } from '@council/providers';
import { fnv1a } from '@council/scoring';
import type { EvalItem, KeyPattern } from './eval-item.js';

/**
 * What the demo's simulated members "know" of an item: the plain phrases of its key content (every `all_of` phrase
 * and the first `any_of` one), else its reference answer. Null when there is neither (regular expressions only).
 */
export function demoKnowledge(item: EvalItem): string | null {
  const plain = (list: readonly KeyPattern[]) => list.flatMap((p) => (p.kind === 'phrase' ? [p.text] : []));
  if (item.accept) {
    const all = plain(item.accept.allOf);
    const any = plain(item.accept.anyOf);
    if (all.length === item.accept.allOf.length && (item.accept.anyOf.length === 0 || any.length > 0))
      return [...all, ...any.slice(0, 1)].join(' and ');
  }
  return item.reference ?? null;
}

const ANSWER_LINE = /^Answer: (.*)$/m;
const UNKNOWN = 'I am not sure.';

/** Puts `Answer: …` after the text's first line, so the `[simulated]` marker stays first. */
function withAnswerLine(text: string, answer: string): string {
  const cut = text.indexOf('\n');
  return cut < 0 ? `${text}\nAnswer: ${answer}` : `${text.slice(0, cut)}\nAnswer: ${answer}${text.slice(cut)}`;
}

/**
 * The demo's members for one item: each simulated member answers the item's known answer with probability equal to
 * its persona's quality (seeded by the run's seed, the item and the member), else "I am not sure."; the chairman
 * gives the answer most members gave, among those that gave one (the first of the most common, in the order shown). Reviews are the
 * simulated provider's own. This makes `council eval --demo` a walk through the report, not a measurement: the
 * simulated members know nothing, and the report says so.
 */
export function withDemoKnowledge(options: {
  resolveModel: (id: string) => LanguageModelV1;
  item: EvalItem;
  seed: number;
}): (id: string) => LanguageModelV1 {
  const known = demoKnowledge(options.item);
  return (id) => {
    const model = options.resolveModel(id);
    const quality = (model as { persona?: { quality?: number } }).persona?.quality ?? 0.5;
    const doGenerate = async (call: GenerateOptions) => {
      const result = await model.doGenerate(call);
      const council = (
        call.providerOptions?.['simulated'] as { council?: { stage?: string; answers?: { text: string }[] } }
      )?.council;
      const stage = council?.stage ?? 'answer';
      if (stage === 'answer') {
        const draw = fnv1a(`${options.seed}:${options.item.id}:${id}`) / 4294967296;
        return { ...result, text: withAnswerLine(result.text, known !== null && draw < quality ? known : UNKNOWN) };
      }
      if (stage === 'chairman') {
        // The answer most members gave, among those that gave one (the first of the most common, in the order shown).
        const given = (council?.answers ?? []).flatMap((a) => {
          const answer = ANSWER_LINE.exec(a.text)?.[1];
          return answer === undefined || answer === UNKNOWN ? [] : [answer];
        });
        const counts = new Map<string, number>();
        for (const a of given) counts.set(a, (counts.get(a) ?? 0) + 1);
        let best = UNKNOWN;
        let most = 0;
        for (const [a, n] of counts) if (n > most) [best, most] = [a, n];
        return { ...result, text: withAnswerLine(result.text, best) };
      }
      return result;
    };
    // No doStream: the synthesis then comes from doGenerate, where the answer line is added.
    return {
      specificationVersion: 'v1',
      provider: model.provider,
      modelId: model.modelId,
      doGenerate,
    } satisfies LanguageModelV1;
  };
}

/** The demo's grader for reference-only items: correct when the answer contains the reference answer's text. */
export function demoGrade(answer: string, reference: string): boolean {
  const normalise = (s: string) => s.toLowerCase().replace(/\s+/g, ' ').trim();
  return normalise(answer).includes(normalise(reference));
}
