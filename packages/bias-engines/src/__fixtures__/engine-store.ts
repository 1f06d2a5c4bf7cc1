import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { BiasObservation } from '@council/bias-audit';
import { syntheticModels, syntheticObservations } from '@council/bias-store/test';
import { biasLine } from './bias-line.js';

// The store the engines' tests read (the ClickHouse tests and the conformance suite): every shape a window meets.

/** A member of the v1 session whose name SQL must escape. */
export const oddName = "a'\\\0b";

export const engineStoreLine = (o: BiasObservation, extra: Record<string, unknown> = {}): string =>
  biasLine(o, { query_metadata: null, ...extra });

/**
 * A store of `sessions` synthetic 5-member sessions (one in ten rank-only) with, beside them: every 13th record
 * unscored but ranked; self-review in the first ten sessions and then one in four; one in seven sessions without one
 * member; one in three with its records out of reviewer order; a second config version in one session (for some of
 * its reviewers: each reviewer's ranking stays whole in a window by config version); a session of a
 * simulated member; two sessions starting at the same instant; an ADR-018 v1 session (integer schema_version, no
 * rank_position, a +01:00 time, members whose name order differs between UTF-16 and code points, met in reverse name
 * order); a repeated record (same fields, another consent level: another key); a conflicting one; lines the loader
 * and the reader skip; one record after `now`. Sessions cross the two files.
 */
export function writeEngineStore(dir: string, spec: { sessions: number; seed: number }): string[] {
  const base = syntheticObservations({ sessions: spec.sessions, seed: spec.seed }).map((o, i) =>
    i % 13 === 5 ? { ...o, score: null } : o,
  );
  const ids = [...new Set(base.map((o) => o.sessionId))];
  const observations = ids.flatMap((sessionId, s) => {
    const absent = syntheticModels[s % syntheticModels.length]!;
    const own = base.filter(
      (o) => o.sessionId === sessionId && (s % 7 !== 3 || (o.reviewer !== absent && o.candidate !== absent)),
    );
    const shuffled =
      s % 3 === 1
        ? own
            .map((o, i) => ({ o, key: (i * 7) % own.length }))
            .sort((a, b) => a.key - b.key)
            .map(({ o }) => o)
        : own;
    // Session 5 starts at the same instant as session 4 (a tie the window breaks by id).
    return s === 5
      ? shuffled.map((o) => ({ ...o, timestamp: base.find((b) => b.sessionId === ids[4])!.timestamp }))
      : shuffled;
  });
  for (const [s, sessionId] of ids.entries()) {
    if (!(s < 10 || s % 4 === 0)) continue;
    const any = observations.find((o) => o.sessionId === sessionId)!;
    for (const [m, member] of syntheticModels.entries()) {
      observations.push({
        ...any,
        reviewer: member,
        candidate: member,
        position: 4,
        responseLengthChars: 300 + 50 * m,
        score: 5 + ((s + m) % 5),
        rankPosition: 4,
      });
    }
  }
  // Ranks are places in each reviewer's ranking of the answers it has in the session (0-based): a member's absence, or
  // its self-review, renumbers them, as a council ranks the answers it shows (a gap would be an out-of-range rank, an
  // invalid record, which engine-conformance.test.ts plants on purpose in a store of its own).
  const rankings = new Map<string, BiasObservation[]>();
  for (const o of observations) {
    if (o.rankPosition === null) continue;
    const key = `${o.sessionId}\n${o.reviewer}`;
    rankings.set(key, [...(rankings.get(key) ?? []), o]);
  }
  for (const ranking of rankings.values())
    ranking.sort((a, b) => a.rankPosition! - b.rankPosition!).forEach((o, i) => (o.rankPosition = i));
  const lines = observations.map((o) =>
    engineStoreLine(
      o,
      o.sessionId === ids[3] && syntheticModels.indexOf(o.reviewer) % 2 === 0
        ? { council_config_version: '0.5.0' }
        : {},
    ),
  );
  const simulated = observations
    .filter((o) => o.sessionId === ids[6])
    .map((o) =>
      engineStoreLine({
        ...o,
        sessionId: 'simulated-session',
        reviewer: o.reviewer === syntheticModels[0] ? 'simulated:echo' : o.reviewer,
        candidate: o.candidate === syntheticModels[0] ? 'simulated:echo' : o.candidate,
      }),
    );
  const v1 = ['c\uE000', 'c\u{1F600}', oddName].flatMap((reviewer, r) =>
    ['c\uE000', 'c\u{1F600}', oddName].map((candidate, c) =>
      JSON.stringify({
        schema_version: 1,
        session_id: 'v1-session',
        timestamp: '2026-03-01T09:00:00+01:00',
        reviewer_id: reviewer,
        model_id: candidate,
        position: (c + r) % 3,
        response_length_chars: 100 * (c + 1),
        score_value: 3 + ((r * 2 + c) % 4) / 10,
      }),
    ),
  );
  const repeat = { ...(JSON.parse(lines[3]!) as Record<string, unknown>), consent_level: 2 };
  const conflict = { ...(JSON.parse(lines[7]!) as Record<string, unknown>), score_value: 1 };
  const future = engineStoreLine({
    ...observations[0]!,
    sessionId: 'future-session',
    timestamp: '2031-01-01T00:00:00Z',
  });
  const bad = [
    'not json',
    '{"schema_version":"2.0.0","session_id":"x"}',
    JSON.stringify({ ...conflict, position: -1 }),
    JSON.stringify({ ...conflict, session_id: 7 }),
  ];
  const cut = Math.floor(lines.length * 0.6);
  const first = [...lines.slice(0, cut), bad[0]!, ...v1, JSON.stringify(repeat), bad[1]!, ...simulated];
  const second = [JSON.stringify(conflict), ...lines.slice(cut), bad[2]!, future, bad[3]!];
  const plain = join(dir, 'alice.jsonl');
  const gzip = join(dir, 'bob.jsonl.gz');
  writeFileSync(plain, `${first.join('\n')}\n`);
  writeFileSync(gzip, gzipSync(`${second.join('\n')}\n`));
  return [plain, gzip];
}
