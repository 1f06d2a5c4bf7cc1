import { BiasAuditError } from './bias-audit-error.js';
import type { IndicatorSessionSummary } from './indicator-session-summary.js';
import { checkIndicatorSessionSummary } from './indicator-session-summary.js';
import type { ScoreSessionSummary } from './score-session-summary.js';
import { checkScoreSessionSummary } from './score-session-summary.js';

/** The version of `BiasSessionSummaries`' shape; a reader refuses any other. */
export const BIAS_SESSION_SUMMARY_VERSION = 1;

/**
 * Everything the cross-session report needs of one session, and nothing of its records beyond it: the "map" of
 * `aggregateBiasAudit`, which only adds sessions' summaries up (so several stores' summaries, merged, give the
 * report of their records together). Plain JSON.
 */
export interface BiasSessionSummary {
  session: string;
  /** Its earliest record's time (ISO 8601): sessions are reported oldest first. */
  time: string;
  /** Its records, scored or not. */
  records: number;
  /** Its reviewers and answering members, sorted. */
  members: string[];
  /** Its records' config versions (`(none)` for none), sorted. */
  configVersions: string[];
  score: ScoreSessionSummary;
  indicators: IndicatorSessionSummary;
}

/** A store's (or several merged stores') per-session summaries, oldest session first. */
export interface BiasSessionSummaries {
  version: typeof BIAS_SESSION_SUMMARY_VERSION;
  sessions: BiasSessionSummary[];
}

function invalid(message: string): BiasAuditError {
  return new BiasAuditError({ code: 'INVALID_INPUT', message: `Bias session summaries: ${message}` });
}

/** Non-empty names, sorted (as `<` orders strings) and each once. */
const isSortedNames = (v: unknown): v is string[] =>
  Array.isArray(v) && v.every((n, j) => typeof n === 'string' && n !== '' && (j === 0 || (v[j - 1] as string) < n));

/**
 * Checks summaries read from elsewhere (a file, another store, an analytics engine) before they are used: the
 * version, each session's shape, that no session appears twice, and that sessions are oldest first. Throws
 * `INVALID_INPUT` naming the first problem.
 */
export function assertBiasSessionSummaries(input: unknown): asserts input is BiasSessionSummaries {
  if (typeof input !== 'object' || input === null) throw invalid('expected an object { version, sessions }.');
  const { version, sessions } = input as Partial<BiasSessionSummaries>;
  if (version !== BIAS_SESSION_SUMMARY_VERSION) {
    throw invalid(
      `version ${String(version)} is not supported; this package reads version ${BIAS_SESSION_SUMMARY_VERSION} (summarise the records again with this version).`,
    );
  }
  if (!Array.isArray(sessions)) throw invalid('sessions must be an array.');
  const seen = new Set<string>();
  let previous: { time: number; session: string } | null = null;
  for (const [at, s] of sessions.entries()) {
    if (typeof s !== 'object' || s === null || typeof s.session !== 'string' || s.session === '')
      throw invalid(`sessions[${at}].session must be a non-empty string.`);
    const fail = (what: string): never => {
      throw invalid(`sessions[${at}] (${s.session}): ${what}.`);
    };
    if (seen.has(s.session))
      throw invalid(`session ${s.session} appears twice (the same session in two stores?); give each session once.`);
    seen.add(s.session);
    const time = typeof s.time === 'string' ? Date.parse(s.time) : Number.NaN;
    if (Number.isNaN(time) || new Date(time).toISOString() !== s.time)
      fail('time must be an ISO 8601 time as toISOString() writes it (2026-01-31T12:00:00.000Z)');
    if (previous !== null && (time < previous.time || (time === previous.time && !(previous.session < s.session)))) {
      fail('sessions must be oldest first, ties by id (mergeBiasSessionSummaries sorts them)');
    }
    previous = { time, session: s.session };
    if (!Number.isInteger(s.records) || s.records < 0) fail('records must be a whole number ≥ 0');
    if (!isSortedNames(s.members) || !isSortedNames(s.configVersions))
      fail('members and configVersions must be names, sorted, each once');
    const check = { members: new Set(s.members), fail };
    checkScoreSessionSummary(s.score, check);
    checkIndicatorSessionSummary(s.indicators, check);
  }
}

/** Anything shaped like summaries (even badly) is taken for summaries, so a wrong one gets a clear error. */
export function looksLikeSessionSummaries(input: unknown): boolean {
  return (
    typeof input === 'object' && input !== null && !Array.isArray(input) && ('version' in input || 'sessions' in input)
  );
}

/**
 * Several stores' summaries as one: sessions oldest first (ties by id, as the reader orders them). Throws
 * `INVALID_INPUT` when a part is malformed or a session appears in two of them: a session is counted once.
 */
export function mergeBiasSessionSummaries(...parts: BiasSessionSummaries[]): BiasSessionSummaries {
  for (const part of parts) assertBiasSessionSummaries(part);
  const seen = new Set<string>();
  for (const part of parts) {
    for (const s of part.sessions) {
      if (seen.has(s.session))
        throw invalid(`session ${s.session} appears twice (the same session in two stores?); give each session once.`);
      seen.add(s.session);
    }
  }
  // Each part is checked, the ids are distinct and the sort below orders them: the result needs no second check.
  const sessions = parts
    .flatMap((p) => p.sessions.map((s) => ({ s, time: Date.parse(s.time) })))
    .sort((a, b) => a.time - b.time || (a.s.session < b.s.session ? -1 : a.s.session > b.s.session ? 1 : 0))
    .map(({ s }) => s);
  return { version: BIAS_SESSION_SUMMARY_VERSION, sessions };
}
