import type { BiasObservation } from '@council/bias-audit';

/** The five members of the synthetic council (a realistic 5-model council's ids). */
export const syntheticModels: readonly string[] = [
  'anthropic/claude-opus-4.6',
  'openai/gpt-5.1',
  'google/gemini-3-pro-preview',
  'x-ai/grok-4',
  'meta-llama/llama-4-maverick',
];

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function uuidFrom(random: () => number): string {
  const hex = Array.from({ length: 32 }, () => Math.floor(random() * 16).toString(16)).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/**
 * Observations of `sessions` synthetic sessions of a 5-model council: every member reviews the four
 * others (20 observations per session), shown in a shuffled order, scored 1–10 with one decimal, one
 * session in ten unscored. Sessions are `minutesApart` apart, starting at `start`.
 */
export function syntheticObservations(options: {
  sessions: number;
  seed?: number;
  start?: string;
  minutesApart?: number;
}): BiasObservation[] {
  const random = mulberry32(options.seed ?? 1);
  const start = Date.parse(options.start ?? '2026-01-01T00:00:00Z');
  const step = (options.minutesApart ?? 7) * 60_000;
  const out: BiasObservation[] = [];
  for (let s = 0; s < options.sessions; s++) {
    const sessionId = uuidFrom(random);
    const timestamp = new Date(start + s * step).toISOString();
    const lengths = syntheticModels.map(() => 200 + Math.floor(random() * 4000));
    const unscored = random() < 0.1;
    for (const reviewer of syntheticModels) {
      const others = syntheticModels.filter((m) => m !== reviewer);
      const shown = [...others].sort(() => random() - 0.5);
      const scores = shown.map(() => (unscored ? null : Math.round((1 + random() * 9) * 10) / 10));
      const ranking = shown.map((_, i) => i).sort((a, b) => (scores[b] ?? 0) - (scores[a] ?? 0) || a - b);
      shown.forEach((candidate, position) => {
        out.push({
          sessionId,
          timestamp,
          reviewer,
          candidate,
          position,
          responseLengthChars: lengths[syntheticModels.indexOf(candidate)]!,
          score: scores[position]!,
          rankPosition: ranking.indexOf(position),
          configVersion: '0.4.0',
          queryCategory: null,
        });
      });
    }
  }
  return out;
}
