import { dirname } from 'node:path';
import { buildTelemetryEvent, observationsFromSession, telemetryEventSchema } from '@council/core';
import type { CouncilSession, TelemetryEvent } from '@council/core';
import { appendHistory, createBiasStore, createContributionStore, createTelemetryOutboxStore, deriveQueryMetadata, hashQuery, historyMaxLineBytes, makeDirectory, recordsFromObservations } from '@council/bias-store';
import { contributionRecordsFromSession } from './contribution-records-from-session.js';
import { councilOutcome } from './council-outcome.js';
import type { HistoryEntry } from './history-log.js';
import type { CouncilSettings } from './settings/council-settings.js';
import { requireHashSecret } from './settings/require-hash-secret.js';

export interface PersistResult {
  consent: number;
  biasRecords: number;
  /**
   * Contribution records written (one per member that answered, for a session with a synthesis): under the bias
   * records' rule, consent ≥ 1 and `LLM_COUNCIL_BIAS_PERSISTENCE=true`, in `settings.files.contributions`.
   */
  contributions: number;
  history: boolean;
  /** Why no bias records were written although they are on: `no-review-read`, no review of the session could be read. */
  biasSkipped?: 'no-review-read';
  telemetryEvent: boolean;
  /** Why something was not written, for the user (one line each). */
  notes: string[];
}

function isSimulatedModel(model: string): boolean {
  return model.startsWith('simulated:');
}

/** True when every stage-1 member was played by a simulated model. */
export function isSimulatedSession(session: Pick<CouncilSession, 'stage1'>): boolean {
  return session.stage1.length > 0 && session.stage1.every((s) => isSimulatedModel(s.model));
}

/**
 * After a session, by consent (ADR-018): nothing at 0; at ≥ 1 the history log, and bias records and contribution
 * records (design doc 004 §7) when `LLM_COUNCIL_BIAS_PERSISTENCE=true`; at ≥ 2 a telemetry event in the outbox (sent later by the
 * uploader) unless a member was simulated. The query text is used for metadata (and, at 4, the salted hash) and never written.
 */
export async function persistSession(options: { session: CouncilSession; settings: CouncilSettings; version: string }): Promise<PersistResult> {
  const { session, settings } = options;
  requireHashSecret(settings);
  const paths = settings.files;
  const config = { consent: settings.consentLevel, writesBiasRecords: settings.writesBiasRecords, hashSecret: settings.secrets.hashSecret };
  const result: PersistResult = { consent: config.consent, biasRecords: 0, contributions: 0, history: false, telemetryEvent: false, notes: [] };
  if (config.consent === 0) {
    result.notes.push('consent level 0: nothing was saved (LLM_COUNCIL_BIAS_CONSENT).');
    return result;
  }
  const metadata = deriveQueryMetadata(session.query);
  const { query: _query, ...withoutQuery } = session;
  const entry: HistoryEntry = {
    schema_version: '1.0.0',
    council_version: options.version,
    simulated: isSimulatedSession(session),
    query_metadata: { category: metadata.category, token_count_bucket: metadata.tokenCountBucket, language: metadata.language },
    session: withoutQuery,
  };
  const written = await appendHistory(paths.history, [entry], { fsync: true });
  result.history = written.dropped === 0;
  if (written.cut > 0) result.notes.push(`the session's history line would have passed ${historyMaxLineBytes / (1024 * 1024)} MiB, so its longest texts were cut in the history log (--json prints them whole).`);
  if (written.dropped > 0) result.notes.push(`the session could not fit in a history line of ${historyMaxLineBytes / (1024 * 1024)} MiB and was not added to the history.`);

  if (config.writesBiasRecords) {
    // Reviews that came back with no ranking anyone could read hold no judgement: records of them (no score, no rank)
    // would count the session in every bias report and measure nothing.
    if (councilOutcome(session).shortfalls.includes('no-review-read')) {
      result.biasSkipped = 'no-review-read';
      result.notes.push('no bias records: no review of this session could be read.');
    } else {
      const observations = observationsFromSession(session, { configVersion: options.version, queryCategory: metadata.category });
      const records = recordsFromObservations(observations, { consent: config.consent, hashSecret: config.hashSecret, query: session.query });
      makeDirectory(dirname(paths.biasStore));
      const written = await createBiasStore({ path: paths.biasStore }).append(records, { fsync: true });
      result.biasRecords = written.records;
    }
    const contributions = contributionRecordsFromSession(session, { configVersion: options.version });
    if (contributions.length > 0) makeDirectory(dirname(paths.contributions));
    result.contributions = (await createContributionStore({ path: paths.contributions }).append(contributions, { fsync: true })).records;
    if (session.synthesis === null) result.notes.push('no contribution records: no chairman answered, so nobody was credited.');
  } else {
    result.notes.push('bias records and contribution records are off: set LLM_COUNCIL_BIAS_PERSISTENCE=true to collect them for `council bias-report` and `council contributions`.');
  }

  if (config.consent >= 2 && session.stage1.some((s) => isSimulatedModel(s.model))) {
    // council-cloud ranks real models; a simulated answer in the rankings would pollute them.
    result.notes.push('no telemetry event: the session had simulated members, whose rankings are not real.');
  } else if (config.consent >= 2) {
    const event = buildTelemetryEvent(session, config.consent, {
      queryMetadata: metadata,
      queryHash: config.consent === 4 && config.hashSecret !== null ? hashQuery({ query: session.query, secret: config.hashSecret }) : null,
    });
    if (event !== null) {
      makeDirectory(dirname(paths.outbox));
      await createTelemetryOutboxStore<TelemetryEvent>(paths.outbox, telemetryEventSchema).append([event], { fsync: true });
      result.telemetryEvent = true;
    }
  }
  return result;
}
