import type { BiasColumns } from '@council/bias-audit';

/**
 * What the length chart draws: one point per scored answer (a session's candidate), its length and its mean
 * score, each less the mean over the session's scored answers, so only differences between answers to the same
 * question remain, as in the reported within-session slope. Sessions with fewer than two scored answers add
 * nothing. Points are thinned evenly to at most `maxPoints`; `total` counts them before thinning.
 */
export function withinSessionLengthPoints(
  columns: BiasColumns,
  maxPoints: number,
): { points: { x: number; y: number }[]; total: number } {
  const all: { x: number; y: number }[] = [];
  const sessions = columns.sessionIds.length;
  for (let s = 0; s < sessions; s++) {
    // Per candidate of this session: score sum and count, length sum and count.
    const answers = new Map<number, { score: number; scores: number; length: number; lengths: number }>();
    for (let i = columns.sessionStart[s]!; i < columns.sessionStart[s + 1]!; i++) {
      const score = columns.score[i]!;
      if (Number.isNaN(score)) continue;
      const candidate = columns.candidate[i]!;
      const a = answers.get(candidate) ?? { score: 0, scores: 0, length: 0, lengths: 0 };
      a.score += score;
      a.scores += 1;
      a.length += columns.responseLengthChars[i]!;
      a.lengths += 1;
      answers.set(candidate, a);
    }
    if (answers.size < 2) continue;
    const levels = [...answers.values()].map((a) => ({ x: a.length / a.lengths, y: a.score / a.scores }));
    const mx = levels.reduce((sum, p) => sum + p.x, 0) / levels.length;
    const my = levels.reduce((sum, p) => sum + p.y, 0) / levels.length;
    for (const p of levels) all.push({ x: p.x - mx, y: p.y - my });
  }
  const step = Math.max(1, Math.ceil(all.length / maxPoints));
  return { points: step === 1 ? all : all.filter((_, i) => i % step === 0), total: all.length };
}
