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

const isNames = (v: unknown): boolean => Array.isArray(v) && v.every((n) => typeof n === 'string' && n !== '');

/**
 * Checks summaries read from elsewhere (a file, another store, an analytics engine) before they are used: the
 * version, each session's shape, that no session appears twice, and that sessions are oldest first. Throws
 * `INVALID_INPUT` naming the first problem.
 */
export function assertBiasSessionSummaries(input: unknown): asserts input is BiasSessionSummaries {
  if (typeof input !== 'object' || input === null) throw invalid('expected an object { version, sessions }.');
  const { version, sessions } = input as Partial<BiasSessionSummaries>;
  if (version !== BIAS_SESSION_SUMMARY_VERSION) {
    throw invalid(`version ${String(version)} is not supported; this package reads version ${BIAS_SESSION_SUMMARY_VERSION} (summarise the records again with this version).`);
  }
  if (!Array.isArray(sessions)) throw invalid('sessions must be an array.');
  const seen = new Set<string>();
  let previous = Number.NEGATIVE_INFINITY;
  for (const [at, s] of sessions.entries()) {
    if (typeof s !== 'object' || s === null || typeof s.session !== 'string' || s.session === '') throw invalid(`sessions[${at}].session must be a non-empty string.`);
    const fail = (what: string): never => {
      throw invalid(`sessions[${at}] (${s.session}): ${what}.`);
    };
    if (seen.has(s.session)) throw invalid(`session ${s.session} appears twice (the same session in two stores?); give each session once.`);
    seen.add(s.session);
    const time = typeof s.time === 'string' ? Date.parse(s.time) : Number.NaN;
    if (Number.isNaN(time)) fail('time must be an ISO 8601 date');
    if (time < previous) fail('sessions must be oldest first (mergeBiasSessionSummaries sorts them)');
    previous = time;
    if (!Number.isInteger(s.records) || s.records < 0) fail('records must be a whole number ≥ 0');
    if (!isNames(s.members) || !isNames(s.configVersions)) fail('members and configVersions must be arrays of names');
    checkScoreSessionSummary(s.score, fail);
    checkIndicatorSessionSummary(s.indicators, fail);
  }
}

/**
 * Several stores' summaries as one: sessions oldest first (ties by id, as the reader orders them). Throws
 * `INVALID_INPUT` when a part is malformed or a session appears in two of them: a session is counted once.
 */
export function mergeBiasSessionSummaries(...parts: BiasSessionSummaries[]): BiasSessionSummaries {
  for (const part of parts) assertBiasSessionSummaries(part);
  const sessions = parts
    .flatMap((p) => p.sessions.map((s) => ({ s, time: Date.parse(s.time) })))
    .sort((a, b) => a.time - b.time || (a.s.session < b.s.session ? -1 : a.s.session > b.s.session ? 1 : 0))
    .map(({ s }) => s);
  const merged: BiasSessionSummaries = { version: BIAS_SESSION_SUMMARY_VERSION, sessions };
  assertBiasSessionSummaries(merged);
  return merged;
}
