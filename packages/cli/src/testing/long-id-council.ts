import { join } from 'node:path';
import type { BiasObservation } from '@council/bias-audit';
import { appendJsonLines } from '@council/bias-store';
import { historyEntry, writeHistory } from './history-fixture.js';

// A council whose every figure fills a report: the dashboard's and the HTML report's phone tests read it.
const START = Date.parse('2026-10-10T00:00:00Z');
const HALF_DAY = 12 * 3_600_000;
const SESSIONS = 40;
/** Seven members, each id as long as the ones OpenRouter hands out, which no phone fits on one line. */
export const LONG_ID_MEMBERS = [
  'openrouter/anthropic/claude-3.7-sonnet:thinking',
  'openrouter/google/gemini-2.5-pro-preview-05-06',
  'openrouter/meta-llama/llama-3.3-70b-instruct:free',
  'openrouter/mistralai/mistral-large-2411',
  'openrouter/deepseek/deepseek-r1-distill-qwen-32b',
  'openrouter/qwen/qwen-2.5-72b-instruct',
  'openrouter/nousresearch/hermes-3-llama-3.1-405b:extended',
];

function timestamp(session: number): string {
  return new Date(START + session * HALF_DAY).toISOString();
}

/**
 * Every section of the bias report filled: the seven members review each other in 40 sessions, each reviewer in its
 * own order (so positions are estimable), the first position half a point up; the second member is harsh (2 points
 * down: a flag), the third one point harsher from session 20 on (drift: two periods), the fourth favours the fifth's
 * answers (an affinity); a small deterministic wobble keeps every figure's interval open.
 */
export function longIdObservations(): BiasObservation[] {
  const out: BiasObservation[] = [];
  for (let s = 0; s < SESSIONS; s++)
    LONG_ID_MEMBERS.forEach((reviewer, r) =>
      LONG_ID_MEMBERS.forEach((candidate, c) => {
        const position = (c + s + r) % LONG_ID_MEMBERS.length;
        const own = r === 1 ? -2 : r === 2 && s >= 20 ? -1 : r === 3 && c === 4 ? 1.5 : 0;
        out.push({
          sessionId: `s-${String(s).padStart(2, '0')}`,
          timestamp: timestamp(s),
          reviewer,
          candidate,
          position,
          responseLengthChars: 700 + 90 * c,
          score: 5 + (c === 0 ? 1 : 0) + (position === 0 ? 0.5 : 0) + own + (((s * 7 + r * 3 + c) % 5) - 2) * 0.1,
          rankPosition: position,
          configVersion: '1.0.0',
          queryCategory: null,
        });
      }),
    );
  return out;
}

/** The history (the leaderboard) and contribution records (the heatmap, under two strategies) of the same sessions. */
export function writeLongIdHistory(home: string): void {
  writeHistory(
    join(home, 'history.jsonl'),
    Array.from({ length: SESSIONS }, (_, s) => {
      const ranking = LONG_ID_MEMBERS.map((_, i) => LONG_ID_MEMBERS[(i + s) % LONG_ID_MEMBERS.length]!);
      return historyEntry({
        id: `s-${String(s).padStart(2, '0')}`,
        timestamp: timestamp(s),
        ranking,
        bordaScores: Object.fromEntries(ranking.map((m, i) => [m, 1 - i / (LONG_ID_MEMBERS.length - 1)])),
      });
    }),
  );
  appendJsonLines(
    join(home, 'contributions.jsonl'),
    Array.from({ length: SESSIONS }, (_, s) =>
      LONG_ID_MEMBERS.map((member, i) => ({
        schema_version: '1.0.0',
        record_id: `s-${String(s).padStart(2, '0')}:${member}`,
        session_id: `s-${String(s).padStart(2, '0')}`,
        conversation_id: null,
        timestamp: timestamp(s),
        member,
        model: member,
        personality: null,
        strategy: s % 2 === 0 ? 'balanced' : 'risk-averse',
        mode: 'consensus',
        // 1/28, 2/28, … 7/28: the block's weights sum to 1.
        weight: (i + 1) / 28,
        vote_winner: i === s % LONG_ID_MEMBERS.length,
        config_version: '1.0.0',
      })),
    ).flat(),
  );
}
