import { buildTelemetryEvent, observationsFromSession, sessionOutcome, telemetryEventSchema } from '@council/core';
import type { CouncilSession, TelemetryEvent } from '@council/core';
import type { SessionPart } from '@council/bias-store';
import {
  councilPaths,
  createBiasStore,
  createContributionStore,
  createTelemetryOutboxStore,
  deriveQueryMetadata,
  hashQuery,
  historyMaxLineBytes,
  listWhat,
  prepareHistory,
  recordsFromObservations,
  saveSessionWhole,
  SessionSaveError,
} from '@council/bias-store';
import { CliError } from './cli-error.js';
import { contributionRecordsFromSession } from './contribution-records-from-session.js';
import type { HistoryEntry } from './history-entry.js';
import type { CouncilSettings } from './settings/council-settings.js';
import { biasRecordsOptIn } from './settings/bias-records-opt-in.js';
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
 * uploader) unless a member was simulated. The question is kept in the history entry alone (unless `keepQuestion` is
 * false); for the rest it is used for metadata (and, at 4, the salted hash) and never written.
 *
 * The session is saved as one unit (`saveSessionWhole`): every line of every file is prepared (and validated) first, the
 * session's journal is written and fsynced, then the bias records, contributions, history entry and outbox event are
 * appended in that order, each whole or absent and fsynced, and the journal goes. Until then every reader (history,
 * reports, contributions) leaves the session out, and the outbox event, written last, is only queued once the rest is
 * there. A failure throws one `CliError` saying what was and was not saved and what to do.
 */
export async function persistSession(options: {
  session: CouncilSession;
  settings: CouncilSettings;
  version: string;
  /**
   * Keep the question in the history entry, for `history list`, `show` and `search` (default true); false with
   * `history_questions: false` in config.yaml. The question goes nowhere else either way.
   */
  keepQuestion?: boolean;
}): Promise<PersistResult> {
  const { session, settings } = options;
  requireHashSecret(settings);
  const paths = settings.files;
  const config = {
    consent: settings.consentLevel,
    writesBiasRecords: settings.writesBiasRecords,
    hashSecret: settings.secrets.hashSecret,
  };
  const result: PersistResult = {
    consent: config.consent,
    biasRecords: 0,
    contributions: 0,
    history: false,
    telemetryEvent: false,
    notes: [],
  };
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
    query_metadata: {
      category: metadata.category,
      token_count_bucket: metadata.tokenCountBucket,
      language: metadata.language,
    },
    // The local history's own copy of the question (issue 30): the one place it is written, and only here.
    ...(options.keepQuestion === false ? {} : { question: session.query }),
    session: withoutQuery,
  };
  const parts: SessionPart[] = [];
  if (config.writesBiasRecords) {
    // Reviews that came back with no ranking anyone could read hold no judgement: records of them (no score, no rank)
    // would count the session in every bias report and measure nothing.
    if (sessionOutcome(session).shortfalls.includes('no-review-read')) {
      result.biasSkipped = 'no-review-read';
      result.notes.push('no bias records: no review of this session could be read.');
    } else {
      const observations = observationsFromSession(session, {
        configVersion: options.version,
        queryCategory: metadata.category,
      });
      const records = recordsFromObservations(observations, {
        consent: config.consent,
        hashSecret: config.hashSecret,
        query: session.query,
      });
      parts.push({
        what: counted(records.length, 'bias record'),
        prepared: createBiasStore({ path: paths.biasStore }).prepare(records),
      });
      result.biasRecords = records.length;
    }
    const contributions = contributionRecordsFromSession(session, { configVersion: options.version });
    parts.push({
      what: counted(contributions.length, 'contribution record'),
      prepared: createContributionStore({ path: paths.contributions }).prepare(contributions),
    });
    result.contributions = contributions.length;
    if (session.synthesis === null)
      result.notes.push('no contribution records: no chairman answered, so nobody was credited.');
  } else {
    result.notes.push(
      `bias records and contribution records are off: to collect them for \`council bias-report\` and \`council contributions\`, ${biasRecordsOptIn(settings)}.`,
    );
  }

  const history = prepareHistory(paths.history, [entry]);
  parts.push({ what: 'its history entry', prepared: history.prepared });
  result.history = history.dropped === 0;
  if (history.cut > 0)
    result.notes.push(
      `the session's history line would have passed ${historyMaxLineBytes / (1024 * 1024)} MiB, so its longest texts were cut in the history log (--json prints them whole).`,
    );
  if (history.dropped > 0)
    result.notes.push(
      `the session could not fit in a history line of ${historyMaxLineBytes / (1024 * 1024)} MiB and was not added to the history.`,
    );

  if (config.consent >= 2 && session.stage1.some((s) => isSimulatedModel(s.model))) {
    // council-cloud ranks real models; a simulated answer in the rankings would pollute them.
    result.notes.push('no telemetry event: the session had simulated members, whose rankings are not real.');
  } else if (config.consent >= 2) {
    const event = buildTelemetryEvent(session, config.consent, {
      queryMetadata: metadata,
      queryHash:
        config.consent === 4 && config.hashSecret !== null
          ? hashQuery({ query: session.query, secret: config.hashSecret })
          : null,
    });
    if (event !== null) {
      // Last: the uploader sends what the outbox holds, so the event is only queued once the rest of the session is saved.
      parts.push({
        what: 'its telemetry event',
        prepared: createTelemetryOutboxStore<TelemetryEvent>(paths.outbox, telemetryEventSchema).prepare([event]),
      });
      result.telemetryEvent = true;
    }
  }

  try {
    await saveSessionWhole({ journal: councilPaths(settings.home).journal, sessionId: session.sessionId, parts });
  } catch (error) {
    if (SessionSaveError.isInstance(error))
      throw new CliError({ code: 'RUNTIME', message: describeSaveFailure(error, settings), cause: error });
    throw error;
  }
  return result;
}

function counted(n: number, what: string): string {
  return `${n} ${what}${n === 1 ? '' : 's'}`;
}

/**
 * The one message of a session that could not be saved: what was and was not saved, and what to do. Either nothing of
 * it reached the disk (its journal could not be written), or its lines wait in the journal, left out of every count,
 * until `council doctor --repair` appends the rest.
 */
export function describeSaveFailure(
  error: SessionSaveError,
  settings: Pick<CouncilSettings, 'home' | 'homeSource'>,
): string {
  const { code, what, fix } = error.problem;
  const why = `${what} (${code})`;
  if (error.journalFile === null) {
    const verb = error.failedStep === 'journal-directory' ? 'create the directory' : 'write';
    return `The session was not saved: cannot ${verb} ${error.failedPath}: ${why}. Nothing of it was written to disk; ${fix} before the next session.`;
  }
  const home = settings.homeSource === '--home' ? ` --home ${settings.home}` : '';
  const parts = listWhat(error.parts.map((p) => p.what));
  return `The session was not saved whole: cannot append to ${error.failedPath}: ${why}. ${parts.charAt(0).toUpperCase()}${parts.slice(1)} ${error.parts.length === 1 && !parts.endsWith('s') ? 'is' : 'are'} kept in ${error.journalFile} and left out of the history and reports until saved; ${fix}, then run \`council doctor --repair${home}\` to finish saving it.`;
}
