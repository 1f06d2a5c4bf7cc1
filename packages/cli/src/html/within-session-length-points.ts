import type { BiasColumns, BiasSessionSummaries } from '@council/bias-audit';

/**
 * What the length chart draws: one point per scored answer (a session's candidate), its length and its mean
 * score, each less the mean over the session's scored answers, so only differences between answers to the same
 * question remain, as in the reported within-session slope. Sessions with fewer than two scored answers add
 * nothing. Points are thinned evenly to at most `maxPoints`; `total` counts them before thinning.
 */
export function withinSessionLengthPoints(columns: BiasColumns, maxPoints: number): { points: { x: number; y: number }[]; total: number } {
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

/**
 * The same points from per-session summaries (an engine's map step: `bias-report --engine`), whose scored answers
 * carry their length and mean score; answers come in their authors' name order there, so thinning may keep other
 * points than from the records.
 */
export function withinSessionLengthPointsFromSummaries(summaries: BiasSessionSummaries, maxPoints: number): { points: { x: number; y: number }[]; total: number } {
  const all: { x: number; y: number }[] = [];
  for (const { score } of summaries.sessions) {
    if (score.answers.length < 2) continue;
    const mx = score.answers.reduce((sum, a) => sum + a.lengthChars, 0) / score.answers.length;
    const my = score.answers.reduce((sum, a) => sum + a.meanScore, 0) / score.answers.length;
    for (const a of score.answers) all.push({ x: a.lengthChars - mx, y: a.meanScore - my });
  }
  const step = Math.max(1, Math.ceil(all.length / maxPoints));
  return { points: step === 1 ? all : all.filter((_, i) => i % step === 0), total: all.length };
}
