import type { BiasObservation } from '@council/bias-audit';

const START = Date.parse('2026-11-01T00:00:00Z');

function stamp(i: number): { sessionId: string; timestamp: string } {
  return { sessionId: `cal-${String(i).padStart(4, '0')}`, timestamp: new Date(START + i * 3_600_000).toISOString() };
}

/**
 * A council whose raw leaderboard is wrong and whose calibrated one is right (issue 31's planted ranking): members
 * m/a, m/b and m/c write answers worth 8, 7 and 6 points and score each other's fairly; a fourth reviewer, r/harsh,
 * reviews only the best member's answer and scores it 4.5 points low. No noise, so every figure is worked by hand:
 * raw means m/a (8 + 8 + 3.5)/3 = 6.5, m/b 7, m/c 6 (m/b first); with r/harsh's offset of −4.5 from the median
 * reviewer (the others' offsets are 0) taken out, m/a 8, m/b 7, m/c 6. Display positions rotate and carry no effect.
 * Each reviewer ranks what it scored, best first; answer lengths (700 to 1,300 characters) vary by session and member
 * and say nothing of quality.
 */
export function harshReviewerObservations(sessions = 24): BiasObservation[] {
  const quality: Record<string, number> = { 'm/a': 8, 'm/b': 7, 'm/c': 6 };
  const members = Object.keys(quality);
  const out: BiasObservation[] = [];
  for (let i = 0; i < sessions; i++) {
    for (const reviewer of [...members, 'r/harsh']) {
      const shown = reviewer === 'r/harsh' ? ['m/a'] : members.filter((m) => m !== reviewer);
      const ranked = [...shown].sort((a, b) => quality[b]! - quality[a]!);
      shown.forEach((candidate, k) => {
        out.push({
          ...stamp(i),
          reviewer,
          candidate,
          position: (k + i) % shown.length,
          responseLengthChars: 700 + ((i * 5 + members.indexOf(candidate) * 3) % 7) * 100,
          score: quality[candidate]! - (reviewer === 'r/harsh' ? 4.5 : 0),
          rankPosition: ranked.indexOf(candidate),
          configVersion: '1.0.0',
          queryCategory: 'coding',
        });
      });
    }
  }
  return out;
}

/**
 * Three judges (not members) score three answers a session, each shown to all three in the same place; j/one and
 * j/two always make the same error, j/three its own. Two judges who err alike disagree by 0 on every answer; each of
 * them and j/three disagree by the same amounts. So the typical pair's disagreement variance is j/three's pairs', ρ
 * is 1 for (j/one, j/two) and 0 for the other two pairs, ρ̄ = 1/3, and n_eff = 3/(1 + 2·1/3) = 1.8 (the biweight
 * gives the zero-variance pair no weight from 45 answers a pair: 150 here). Every replicate has the same structure,
 * so the interval is [1.8–1.8].
 */
export function correlatedJudgesObservations(sessions = 50): BiasObservation[] {
  const level: Record<string, number> = { 'c/a': 7, 'c/b': 6, 'c/c': 5 };
  const candidates = Object.keys(level);
  const out: BiasObservation[] = [];
  for (let i = 0; i < sessions; i++) {
    candidates.forEach((candidate, k) => {
      const shared = (i + k) % 2 === 0 ? 0.5 : -0.5;
      const own = ((i * 7 + k * 3) % 5) / 2 - 1;
      for (const reviewer of ['j/one', 'j/two', 'j/three']) {
        const position = (k + i) % candidates.length;
        const score = level[candidate]! + (reviewer === 'j/three' ? own : shared);
        out.push({
          ...stamp(i),
          reviewer,
          candidate,
          position,
          responseLengthChars: 900 + 50 * k,
          score,
          rankPosition: position,
          configVersion: '1.0.0',
          queryCategory: 'coding',
        });
      }
    });
  }
  return out;
}
