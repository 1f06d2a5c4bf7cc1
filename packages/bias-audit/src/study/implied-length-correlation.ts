import { simulateCouncils } from '../internal/simulate-councils.js';
import type { StudySimulation } from './study-simulation.js';

const cache = new Map<string, number>();

/**
 * The pooled within-session correlation between an answer's length and its mean score that a
 * simulated council implies, by simulation: Σ(x − x̄ₛ)(y − ȳₛ) / √(Σ(x − x̄ₛ)² · Σ(y − ȳₛ)²) over
 * `sessions` sessions (default 50,000: a Monte-Carlo standard error near 1/√(50,000·(C − 1)) ≈ 0.002
 * for 5 answers a session), with sessions centred on their own means. Used as the truth of the length
 * correlation when knobs other than `lengthCorrelation` (or several at once) shape it. Seeded and
 * memoised per council.
 */
export function impliedLengthCorrelation(
  simulation: StudySimulation,
  options: { sessions?: number; seed?: number } = {},
): number {
  const sessions = options.sessions ?? 50_000;
  const seed = options.seed ?? 913_000_001;
  const key = `${sessions}:${seed}:${JSON.stringify(simulation)}`;
  const known = cache.get(key);
  if (known !== undefined) return known;
  let sxx = 0;
  let syy = 0;
  let sxy = 0;
  const chunk = 2_000;
  for (let done = 0, part = 0; done < sessions; done += chunk, part++) {
    const observations = simulateCouncils({
      ...simulation,
      sessions: Math.min(chunk, sessions - done),
      seed: seed + part,
    });
    // Observations come session by session; per session: each answer's length and mean score.
    const perAnswer = new Map<string, { chars: number; sum: number; n: number }>();
    const flush = (): void => {
      const answers = [...perAnswer.values()];
      perAnswer.clear();
      if (answers.length < 2) return;
      const xs = answers.map((a) => a.chars);
      const ys = answers.map((a) => a.sum / a.n);
      const mx = xs.reduce((s, x) => s + x, 0) / xs.length;
      const my = ys.reduce((s, y) => s + y, 0) / ys.length;
      xs.forEach((x, i) => {
        sxx += (x - mx) ** 2;
        syy += (ys[i]! - my) ** 2;
        sxy += (x - mx) * (ys[i]! - my);
      });
    };
    let current = '';
    for (const o of observations) {
      if (o.sessionId !== current) {
        flush();
        current = o.sessionId;
      }
      if (o.score === null) continue;
      const answer = perAnswer.get(o.candidate);
      if (answer) {
        answer.sum += o.score;
        answer.n++;
      } else perAnswer.set(o.candidate, { chars: o.responseLengthChars, sum: o.score, n: 1 });
    }
    flush();
  }
  const r = sxy / Math.sqrt(sxx * syy);
  cache.set(key, r);
  return r;
}
