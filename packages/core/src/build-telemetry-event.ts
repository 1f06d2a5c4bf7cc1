import { randomUUID } from 'node:crypto';
import { CouncilError } from './council-error.js';
import type { CouncilSession } from './council-session.js';
import { TELEMETRY_SCHEMA_VERSION, telemetryEventSchema } from './telemetry-event-schema.js';
import type { TelemetryEvent } from './telemetry-event-schema.js';

/** ADR-018 v1.1 query metadata, camelCase (the shape `@council/bias-store`'s `deriveQueryMetadata` returns). */
export interface TelemetryQueryMetadata {
  category: string | null;
  tokenCountBucket: string | null;
  language: string | null;
}

/** What the caller adds: core never sees files or secrets, so metadata and hash are computed outside. */
export interface TelemetryEventExtras {
  /** Sent at consent level 3 and above. */
  queryMetadata?: TelemetryQueryMetadata | null;
  /** The salted query hash (`hashQuery`); sent at consent level 4 only. */
  queryHash?: string | null;
  /** Default: a random UUID v4. */
  eventId?: string;
}

/**
 * ADR-018's council-cloud event for a session, containing only what `consentLevel` allows:
 * 0–1 → null (nothing leaves the machine), and null for an unranked session; 2 → rankings (and a jury's verdict summary); 3 → + `bias_indicators` and `query_metadata`;
 * 4 → + `query_hash`. Rankings name the model that played each member, never texts or the query.
 * The result is validated against `telemetryEventSchema`.
 */
export function buildTelemetryEvent(
  session: CouncilSession,
  consentLevel: number,
  extras: TelemetryEventExtras = {},
): TelemetryEvent | null {
  if (!(Number.isInteger(consentLevel) && consentLevel >= 0 && consentLevel <= 4)) {
    throw new CouncilError({
      code: 'INVALID_OPTION',
      message: `consentLevel must be 0, 1, 2, 3 or 4 (got ${String(consentLevel)}).`,
    });
  }
  if (consentLevel < 2) return null;
  // An unranked session (fewer than three answers, see `scoreReviews`) has no rankings to send.
  if (session.leaderboard.length === 0) return null;
  const modelOf = new Map(session.stage1.map((s) => [s.member, s.model]));
  const event: Record<string, unknown> = {
    schema_version: TELEMETRY_SCHEMA_VERSION,
    event_id: extras.eventId ?? randomUUID(),
    session_id: session.sessionId,
    timestamp: session.timestamp,
    consent_level: consentLevel,
    rankings: session.leaderboard.map((entry) => ({
      model: modelOf.get(entry.candidate) ?? entry.candidate,
      borda_score: entry.bordaScore,
      borda_points: entry.bordaPoints,
      vote_count: entry.voteCount,
      win_count: entry.winCount,
      final_rank: entry.finalRank,
      confidence: entry.confidence,
    })),
  };
  const verdict = session.verdict;
  if (verdict !== undefined) {
    const count = (decision: string | null) => verdict.votes.filter((v) => v.decision === decision).length;
    event.verdict = {
      mode: verdict.mode,
      decision: verdict.decision,
      reason: verdict.reason,
      margin: verdict.margin,
      min_margin: verdict.minMargin,
      flip_sensitive: verdict.flipSensitive,
      approve: count('approve'),
      reject: count('reject'),
      unclear: count('unclear'),
      failed: count(null),
    };
  }
  if (consentLevel >= 3) {
    const indicators = session.biasIndicators;
    event.bias_indicators =
      indicators === null
        ? null
        : {
            position_variance: indicators.position_variance,
            length_correlation: indicators.length_correlation,
            reviewer_agreement: indicators.reviewer_agreement,
            flags: [...indicators.flags],
          };
    const meta = extras.queryMetadata;
    event.query_metadata = meta
      ? { category: meta.category, token_count_bucket: meta.tokenCountBucket, language: meta.language }
      : null;
  }
  if (consentLevel >= 4) event.query_hash = extras.queryHash ?? null;
  const parsed = telemetryEventSchema.safeParse(event);
  if (!parsed.success) {
    throw new CouncilError({
      code: 'INVALID_OPTION',
      message: `The telemetry event does not validate: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(event)'} ${i.message}`).join('; ')}. Check eventId (a UUID) and queryHash (lower-case hex).`,
    });
  }
  return parsed.data;
}
