/**
 * One reviewer's view of one candidate response in one session: the unit that cross-session
 * aggregation (ADR-018) works on. `@council/bias-store` persists it as a `BiasMetricRecord`
 * (snake_case on disk) and `@council/core` produces it from a finished session.
 */
export interface BiasObservation {
  /** The council session this observation belongs to. */
  sessionId: string;
  /** When the session ran: ISO 8601 with a zone, e.g. `2026-11-22T10:30:00Z`. */
  timestamp: string;
  /** The reviewing member's id (ADR-018 `reviewer_id`). */
  reviewer: string;
  /** The id of the member whose response was reviewed (ADR-018 `model_id`). */
  candidate: string;
  /** 0-based position the response was shown in to this reviewer — display order, never the rank it got (at most 65,535). */
  position: number;
  /** Length of the reviewed response in characters. */
  responseLengthChars: number;
  /** The score the reviewer gave, or null when it ranked without scoring (never a fake 0). */
  score: number | null;
  /** 0-based place of the candidate in this reviewer's ranking, or null when it was not ranked. */
  rankPosition: number | null;
  /** The council configuration version, for change-point detection and filtering. */
  configVersion: string | null;
  /** The query's category from its metadata (e.g. `coding`), never the query text. */
  queryCategory: string | null;
}
