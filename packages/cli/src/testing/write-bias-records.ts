import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BiasObservation } from '@council/bias-audit';
import { createBiasStore, recordsFromObservations } from '@council/bias-store';

/**
 * Writes `observations` as a bias store (consent 1, no query) in a new temporary folder named after `prefix`: the
 * folder (a report's working directory) and the store's path (its `--store`).
 */
export async function writeObservationStore(
  observations: readonly BiasObservation[],
  prefix = 'council-bias-store-',
): Promise<{ dir: string; path: string }> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const path = join(dir, 'bias_metrics.jsonl');
  await createBiasStore({ path }).append(
    recordsFromObservations(observations, { consent: 1, hashSecret: null, query: null }),
  );
  return { dir, path };
}

/** The text of an HTML report as a reader sees it: no style sheet, no tags, entities decoded, white space folded. */
export function visibleText(html: string): string {
  return html
    .replace(/<style>[\s\S]*?<\/style>/, '')
    .replace(/<[^>]+>/g, ' ')
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&quot;', '"')
    .replaceAll('&#39;', "'")
    .replaceAll('&amp;', '&')
    .replace(/\s+/g, ' ');
}

/**
 * Writes a bias store with a planted, hand-computable position effect: 4 reviewers score 4 candidates
 * per session; every score is 5, plus a bonus for the answer shown first: 1 in even sessions, 2 in odd
 * ones. Within a (session, reviewer) the first position's centred score is 3·bonus/4: 0.75 or 1.5.
 */
export function plantedObservations(options: {
  sessions: number;
  start?: string;
  reviewers?: readonly string[];
  prefix?: string;
}): BiasObservation[] {
  const start = Date.parse(options.start ?? '2026-11-01T00:00:00Z');
  const reviewers = options.reviewers ?? ['r/one', 'r/two', 'r/three', 'r/four'];
  const candidates = ['c/a', 'c/b', 'c/c', 'c/d'];
  const out: BiasObservation[] = [];
  for (let i = 0; i < options.sessions; i++) {
    const bonus = i % 2 === 0 ? 1 : 2;
    const timestamp = new Date(start + i * 3_600_000).toISOString();
    for (const reviewer of reviewers) {
      candidates.forEach((candidate, k) => {
        const position = (k + i) % candidates.length;
        out.push({
          sessionId: `${options.prefix ?? 's'}-${String(i).padStart(6, '0')}`,
          timestamp,
          reviewer,
          candidate,
          position,
          responseLengthChars: 800 + 100 * k,
          score: 5 + (position === 0 ? bonus : 0),
          rankPosition: position,
          configVersion: '1.0.0',
          queryCategory: 'coding',
        });
      });
    }
  }
  return out;
}

export async function writePlantedStore(
  path: string,
  options: Parameters<typeof plantedObservations>[0],
): Promise<void> {
  const records = recordsFromObservations(plantedObservations(options), { consent: 1, hashSecret: null, query: null });
  await createBiasStore({ path }).append(records);
}

/**
 * 13 hourly sessions from 2026-11-01 in which three members (m/a, m/b, m/c) score each other's answers `score`, every
 * one, shown in an order that alternates between sessions: the degenerate council of the "no variation" tests. Each
 * answer's length and the reviewer's rank of it are the caller's (`k` is the answer's place among the reviewer's two).
 */
export function flatCouncilObservations(options: {
  score: number;
  length: (session: number, candidate: number) => number;
  rank: (session: number, k: number) => number;
}): BiasObservation[] {
  const members = ['m/a', 'm/b', 'm/c'];
  const out: BiasObservation[] = [];
  for (let i = 0; i < 13; i++)
    for (const reviewer of members)
      members
        .filter((m) => m !== reviewer)
        .forEach((candidate, k) =>
          out.push({
            sessionId: `d-${i}`,
            timestamp: new Date(Date.parse('2026-11-01T00:00:00Z') + i * 3_600_000).toISOString(),
            reviewer,
            candidate,
            position: (k + i) % 2,
            responseLengthChars: options.length(i, members.indexOf(candidate)),
            score: options.score,
            rankPosition: options.rank(i, k),
            configVersion: '1.0.0',
            queryCategory: 'coding',
          }),
        );
  return out;
}
