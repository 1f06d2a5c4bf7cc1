import { appendFileSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * A well-formed schema 1.1.0 event at `level`, with exactly the fields ADR-018 allows there; written
 * by hand (ADR-018's example values; a two-member Borda board), not produced by core's builder.
 */
export function sampleEvent(index: number, level: 2 | 3 | 4 = 2): Record<string, unknown> {
  const id = `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`;
  const event: Record<string, unknown> = {
    schema_version: '1.1.0',
    event_id: id,
    session_id: `5e55a000-0000-4000-8000-${String(index).padStart(12, '0')}`,
    timestamp: '2025-12-17T10:30:00Z',
    consent_level: level,
    rankings: [
      {
        model: 'anthropic/claude-opus-4.6',
        borda_score: 1,
        borda_points: 1,
        vote_count: 1,
        win_count: 1,
        final_rank: 1,
        confidence: 'low',
      },
      {
        model: 'google/gemini-3-pro-preview',
        borda_score: 0,
        borda_points: 0,
        vote_count: 1,
        win_count: 0,
        final_rank: 2,
        confidence: 'low',
      },
    ],
  };
  if (level >= 3) {
    event.bias_indicators = {
      position_variance: 0.23,
      length_correlation: 0.12,
      reviewer_agreement: 0.78,
      flags: ['POSITION_BIAS_DETECTED'],
    };
    event.query_metadata = { category: 'coding', token_count_bucket: '100-500', language: 'en' };
  }
  if (level >= 4) event.query_hash = '0123456789abcdef';
  return event;
}

/** Appends raw lines to an outbox file (creating its directory), exactly as given. */
export function appendOutboxLines(path: string, lines: readonly string[]): void {
  mkdirSync(dirname(path), { recursive: true });
  appendFileSync(path, lines.map((line) => `${line}\n`).join(''));
}

/** Appends events to an outbox file, one JSON line each. */
export function appendOutboxEvents(path: string, events: readonly Record<string, unknown>[]): void {
  appendOutboxLines(
    path,
    events.map((event) => JSON.stringify(event)),
  );
}

/** A `sleep` that waits for nothing and records what it was asked to wait, in ms. */
export function recordingSleep(waits: number[]): (ms: number) => Promise<void> {
  return (ms) => {
    waits.push(ms);
    return Promise.resolve();
  };
}

/** A `sleep` that does not wait. */
export const noSleep = (): Promise<void> => Promise.resolve();
