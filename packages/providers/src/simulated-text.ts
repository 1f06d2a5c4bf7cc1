import { createMulberry32FromParts } from './create-mulberry32-from-parts.js';
import { hashString } from './hash-string.js';

/** Every simulated output begins with this marker, so it can never pass for a real model's answer. */
export const simulatedMarker = '[simulated]';

/**
 * Sentence templates in pairs of equal length: a substantive one and a filler one. Equal lengths
 * keep an answer's quality (its share of substantive sentences) independent of its length.
 */
const sentencePairs: ReadonlyArray<readonly [substantive: string, filler: string]> = [
  [
    'The key trade-off with {t} is cost against speed, so measure both, first.',
    'Generally speaking, {t} is something that people have many views on, too.',
  ],
  [
    'For example, a small pilot on {t} shows the real bottleneck within a week.',
    'It really depends on the situation, and {t} can go either way, in the end.',
  ],
  [
    'Because {t} fails in predictable ways, write down its failure modes early.',
    'There are various aspects of {t} to consider, and all of them matter lots.',
  ],
  [
    'In practice, {t} works best with a single owner and a written rollback plan.',
    'Many people find {t} interesting, and there is a great deal to say about it.',
  ],
  [
    'The evidence on {t} favours small, reversible steps over one large rewrite.',
    'As we all know, {t} is a broad topic with plenty of different perspectives.',
  ],
  [
    'Concretely, check {t} against three criteria: risk, effort and the payoff.',
    'Overall, {t} matters a lot, and it is worth keeping in mind going forward.',
  ],
];

export const substantiveTemplates: readonly string[] = sentencePairs.map((p) => p[0]);
export const fillerTemplates: readonly string[] = sentencePairs.map((p) => p[1]);
const substantivePrefixes = substantiveTemplates.map((t) => t.slice(0, t.indexOf('{t}')));
const fillerPrefixes = fillerTemplates.map((t) => t.slice(0, t.indexOf('{t}')));

// Every opening has the same length, and every sign-off: a persona's style must not make its answers longer.
export const styleOpenings: readonly string[] = [
  'Here is my take on this.',
  'Short answer goes first.',
  'Let me lay this all out.',
  'A direct answer follows.',
  'My view, stated briefly.',
  'Good question, in brief.',
  'Straight to the answers.',
  'In a short summary form.',
];
export const styleSignOffs: readonly string[] = [
  'Hope this helps a bit.',
  "That's the gist of it.",
  'Happy to go into more.',
  'The key points, above.',
  'That covers all of it.',
  'Worth revisiting soon.',
  'Use what fits for you.',
  'Judge by your context.',
];

/** The opening and sign-off lines of a writing style (0–63). */
export function styleLines(style: number): { opening: string; signOff: string } {
  return {
    opening: `${simulatedMarker} ${styleOpenings[style % 8]!}`,
    signOff: styleSignOffs[Math.floor(style / 8) % 8]!,
  };
}

const stopWords = new Set(
  'about above after again against also because been before being below between both could does doing down during each either from further have having here into itself just like made make many more most much must need only other over same should some such than that their them then there these they this those through under until very want were what when where which while whom will with within without would your yours'.split(
    ' ',
  ),
);

/**
 * The question a member is asked, without the context a follow-up wraps around it: the council's previous answer
 * between `<<<token …>>>` markers (the token is random, and would otherwise be picked as a topic word) and the line
 * that introduces the question. A prompt without markers is the question itself.
 */
export function askedQuestion(prompt: string): string {
  const ends = [...prompt.matchAll(/<<<[^\s>]+ END>>>/g)];
  const last = ends.at(-1);
  if (last === undefined) return prompt;
  const after = prompt.slice(last.index + last[0].length).trim();
  // "The follow-up question:" (or a configured template's own introduction) on a line of its own before the question.
  const lines = after.split('\n');
  return (lines.length > 1 && /:\s*$/.test(lines[0]!) ? lines.slice(1).join('\n') : after).trim() || prompt;
}

/** Up to three topic words from a question: its longest words of four or more letters, common words left out. */
export function topicWords(question: string): string[] {
  const words = question
    .toLowerCase()
    .split(/[^a-z0-9-]+/)
    .map((w) => w.replace(/^-+|-+$/g, ''))
    .filter((w) => w.length >= 4 && !stopWords.has(w));
  const unique = [...new Set(words)];
  const ranked = unique.map((w, i) => ({ w, i })).sort((a, b) => b.w.length - a.w.length || a.i - b.i);
  const chosen = ranked.slice(0, 3).map((x) => x.w);
  return chosen.length > 0 ? chosen : ['the question'];
}

/**
 * A stage-1 answer: the style's opening line, `sentences` sentences in two paragraphs, each
 * substantive with probability `quality` (seeded), and the style's sign-off line.
 */
export function composeAnswer(options: {
  question: string;
  quality: number;
  sentences: number;
  style: number;
  random: () => number;
}): string {
  const topics = topicWords(options.question);
  const { opening, signOff } = styleLines(options.style);
  const body: string[] = [];
  for (let i = 0; i < options.sentences; i++) {
    const substantive = options.random() < options.quality;
    const bank = substantive ? substantiveTemplates : fillerTemplates;
    const template = bank[Math.floor(options.random() * bank.length)]!;
    body.push(template.replace('{t}', topics[Math.floor(options.random() * topics.length)]!));
  }
  const half = Math.ceil(body.length / 2);
  return [opening, body.slice(0, half).join(' '), body.slice(half).join(' '), signOff]
    .filter((p) => p !== '')
    .join('\n\n');
}

/** The sentences of a text that the simulator wrote, split into substantive and filler; others are ignored. */
export function classifySentences(text: string): { substantive: string[]; filler: string[] } {
  const substantive: string[] = [];
  const filler: string[] = [];
  for (const sentence of text.split(/(?<=[.!?])\s+|\n+/)) {
    const s = sentence.trim();
    if (substantivePrefixes.some((p) => s.startsWith(p))) substantive.push(s);
    else if (fillerPrefixes.some((p) => s.startsWith(p))) filler.push(s);
  }
  return { substantive, filler };
}

/**
 * The quality a reader perceives in a text: its share of substantive sentences, which is an
 * unbiased estimate of the author's latent quality whatever the length. Text the simulator did
 * not write gets a stable value in [0.3, 0.8] from its hash.
 */
export function perceivedQuality(text: string): number {
  const { substantive, filler } = classifySentences(text);
  const total = substantive.length + filler.length;
  if (total === 0) return 0.3 + 0.5 * (hashString(text.trim()) / 4294967296);
  return substantive.length / total;
}

/** The style (0–63) whose opening and sign-off lines a text carries, or undefined. */
export function detectStyle(text: string): number | undefined {
  const lines = text.split('\n').map((l) => l.trim());
  const o = styleOpenings.findIndex((x) => lines.includes(`${simulatedMarker} ${x}`));
  const s = styleSignOffs.findIndex((x) => lines.includes(x));
  return o < 0 || s < 0 ? undefined : o + 8 * s;
}

/** A stable noise generator for one reader and one text, independent of where the text is shown. */
export function textRandom(parts: readonly (string | number)[], text: string): () => number {
  return createMulberry32FromParts([...parts, hashString(text.trim())]);
}

/** A simulated answer as a reader sees it: cut after its sign-off line, dropping what a prompt appended. */
export function trimToSignOff(text: string): string {
  const lines = text.split('\n');
  const end = lines.findIndex((l, i) => i > 0 && styleSignOffs.includes(l.trim()));
  return (end > 0 ? lines.slice(0, end + 1).join('\n') : text).trim();
}
