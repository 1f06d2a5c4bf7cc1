/**
 * A per-record column of indices (into `models`, or 1 + into `configVersions`): 8-bit where every index fits (up to 256
 * members, 255 config versions), as a reader may give it. An entry reads as the same number whatever the width.
 */
export type BiasIdColumn = Uint8Array | Uint16Array;

/** A per-record column of counts (`position`, `responseLengthChars`): as narrow as the window's values allow. */
export type BiasCountColumn = Uint8Array | Uint16Array | Uint32Array;

/**
 * The per-record scores: 32-bit where every score of the window is a 32-bit float exactly (whole, half and quarter
 * points do; 7.3 does not), so each reads back as the same double; 64-bit otherwise.
 */
export type BiasScoreColumn = Float32Array | Float64Array;

/**
 * Bias records as columns: one typed array per field, one entry per record, the records of each session
 * contiguous (`sessionStart[s]` to `sessionStart[s + 1]`) and sessions oldest first. Ids are interned:
 * `reviewer[i]` indexes `models`, `session[i]` indexes `sessionIds`. `@council/bias-store`'s reader
 * (`readBiasRecords`) produces it; the cross-session statistics read it without an object per record.
 *
 * The statistics never read `session`, `time`, `queryCategory` or `positionIsDisplayOrder` per record (`sessionStart`
 * gives a record's session, `sessionTime` a session's time): a reader may leave them out (an engine's report read,
 * `columns: 'report'`, does: 15 of a record's 41 bytes). Code that needs them takes `CompleteBiasColumns`.
 *
 * The ids, counts and scores come as wide as the reader made them (`BiasIdColumn`, `BiasCountColumn`,
 * `BiasScoreColumn`): DuckDB's report read gives the narrowest its window's values fit, 13–14 bytes a record where a
 * council's positions, lengths and scores are small; `readBiasRecords` and `observationsToColumns` the widest. A
 * reader of the values needs nothing more; code that makes a column like one it was given makes it of the same type.
 */
export interface BiasColumns {
  /** Records (the length of every per-record array). */
  readonly length: number;
  /** Per record: index into `sessionIds` (absent from a report read's columns). */
  readonly session?: Uint32Array;
  /** Per record: index into `models` of the reviewing member (`reviewer_id`). */
  readonly reviewer: BiasIdColumn;
  /** Per record: index into `models` of the reviewed member (`model_id`). */
  readonly candidate: BiasIdColumn;
  /** Per record: the 0-based position the answer was shown in to this reviewer. */
  readonly position: BiasCountColumn;
  readonly responseLengthChars: BiasCountColumn;
  /** Per record: the score, or NaN when the reviewer ranked without scoring. */
  readonly score: BiasScoreColumn;
  /** Per record: the 0-based rank the reviewer gave, or `noRank` (0xFFFFFFFF). */
  readonly rankPosition: Uint32Array;
  /** Per record: epoch milliseconds (absent from a report read's columns). */
  readonly time?: Float64Array;
  /** Per record: 1 + index into `configVersions`, or 0 for none. */
  readonly configVersion: BiasIdColumn;
  /** Per record: 1 + index into `queryCategories`, or 0 for none (absent from a report read's columns). */
  readonly queryCategory?: Uint16Array;
  /** Per record: 1 when `position` is known to be display order (absent from a report read's columns). */
  readonly positionIsDisplayOrder?: Uint8Array;

  /** Sessions, oldest first by their earliest record (ties by id). */
  readonly sessionIds: readonly string[];
  /** Per session: its earliest record's time (epoch ms). */
  readonly sessionTime: Float64Array;
  /** Per session, plus one: where its records start; `sessionStart[sessionIds.length] === length`. */
  readonly sessionStart: Uint32Array;
  readonly models: readonly string[];
  readonly configVersions: readonly string[];
  readonly queryCategories: readonly string[];
}

/** `BiasColumns` with every per-record column present, as `readBiasRecords` and `observationsToColumns` give them. */
export type CompleteBiasColumns = Required<BiasColumns>;

/** The `rankPosition` of a record that was not ranked. */
export const noRank = 0xffff_ffff;
