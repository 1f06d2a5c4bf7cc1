import { appendJsonLines } from '@council/bias-store';
import type { HistoryEntry, HistorySession } from '../history-entry.js';

/** A hand-written session: every reviewer ranks the members in `ranking` order (self excluded by Borda). */
export function historyEntry(options: {
  id: string;
  timestamp: string;
  ranking: readonly string[];
  bordaScores: Readonly<Record<string, number>>;
  category?: string;
  critiques?: Readonly<Record<string, { strengths: string; weaknesses: string }>>;
}): HistoryEntry {
  const members = [...options.ranking];
  const sorted = [...members].sort((a, b) => (options.bordaScores[b] ?? 0) - (options.bordaScores[a] ?? 0));
  const session = {
    sessionId: options.id,
    timestamp: options.timestamp,
    config: { members, chairman: members[0]!, strategy: 'balanced', mode: 'consensus', order: 'shared' },
    stage1: members.map((m) => ({
      member: m,
      model: m,
      text: `answer of ${m}`,
      usage: null,
      latencyMs: 1000,
      error: null,
      suspectedInjection: false,
      injectionSignals: [],
    })),
    stage2: members.map((reviewer) => ({
      reviewer,
      model: reviewer,
      order: members,
      labelToModel: {},
      evaluation: {
        ranking: members,
        scores: {},
        critiques: reviewer === members[0] ? {} : (options.critiques ?? {}),
        abstained: false,
        format: 'json',
      },
      text: '',
      warnings: [],
      usage: null,
      latencyMs: 1,
      error: null,
    })),
    leaderboard: sorted.map((candidate, i) => ({
      candidate,
      bordaScore: options.bordaScores[candidate] ?? 0,
      bordaPoints: 0,
      voteCount: members.length - 1,
      winCount: i === 0 ? members.length - 1 : 0,
      finalRank: i + 1,
      confidence: 'high',
    })),
    agreement: { kendallW: 1, kendallWPValue: 0.05, krippendorffAlpha: 1, ballots: members.length },
    synthesis: {
      text: 'synthesis',
      contributors: null,
      winner: null,
      strategy: 'balanced',
      mode: 'consensus',
      model: members[0]!,
      warnings: [],
      usage: { inputTokens: 1, outputTokens: 1 },
      latencyMs: 1,
    },
    biasAudit: null,
    biasIndicators: null,
    excluded: [],
    usage: { inputTokens: 10, outputTokens: 5, tokens: 15, costUsd: null },
    warnings: [],
  } as unknown as HistorySession;
  return {
    schema_version: '1.0.0',
    council_version: '0.0.0-test',
    simulated: false,
    query_metadata: { category: options.category ?? 'general', token_count_bucket: '0-100', language: 'en' },
    session,
  };
}

/** A session in which each reviewer gave the scores listed, to answers with the texts listed (nothing else filled in). */
export function scoredHistoryEntry(
  id: string,
  answers: Record<string, string>,
  scores: Record<string, Record<string, number>>,
): HistoryEntry {
  return {
    schema_version: '1.0.0',
    council_version: '0.0.0-test',
    simulated: false,
    query_metadata: null,
    session: {
      sessionId: id,
      stage1: Object.entries(answers).map(([member, text]) => ({ member, model: member, text })),
      stage2: Object.entries(scores).map(([reviewer, given]) => ({
        reviewer,
        model: reviewer,
        evaluation: { scores: given },
      })),
    } as unknown as HistorySession,
  };
}

export function writeHistory(path: string, entries: readonly HistoryEntry[]): void {
  appendJsonLines(path, entries);
}
