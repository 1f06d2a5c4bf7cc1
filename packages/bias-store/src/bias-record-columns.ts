/**
 * The bias records of a window as columns: one typed array per field, one entry per record, with the
 * records of each session contiguous (`sessionStart[s]` to `sessionStart[s + 1]`) and sessions oldest
 * first. Ids are interned: `reviewer[i]` indexes `models`, `session[i]` indexes `sessionIds`. This is
 * what the statistics read; a record costs 41 bytes here instead of an object of a dozen properties.
 */
export interface BiasRecordColumns {
  /** Records (the length of every per-record array). */
  readonly length: number;
  /** Per record: index into `sessionIds`. */
  readonly session: Uint32Array;
  /** Per record: index into `models` of the reviewing member (`reviewer_id`). */
  readonly reviewer: Uint16Array;
  /** Per record: index into `models` of the reviewed member (`model_id`). */
  readonly candidate: Uint16Array;
  /** Per record: the 0-based position the answer was shown in to this reviewer. */
  readonly position: Uint32Array;
  readonly responseLengthChars: Uint32Array;
  /** Per record: the score, or NaN when the reviewer ranked without scoring. */
  readonly score: Float64Array;
  /** Per record: the 0-based rank the reviewer gave, or `noRank`. */
  readonly rankPosition: Uint32Array;
  /** Per record: epoch milliseconds (zone-less timestamps read as UTC). */
  readonly time: Float64Array;
  /** Per record: 1 + index into `configVersions`, or 0 for none. */
  readonly configVersion: Uint16Array;
  /** Per record: 1 + index into `queryCategories`, or 0 for none. */
  readonly queryCategory: Uint16Array;
  /** Per record: 1 when `position` is known to be display order (see `BiasMetricRecord.positionIsDisplayOrder`). */
  readonly positionIsDisplayOrder: Uint8Array;

  /** Sessions, oldest first by their earliest record in the window (ties by id). */
  readonly sessionIds: readonly string[];
  /** Per session: its earliest record's time in the window (epoch ms). */
  readonly sessionTime: Float64Array;
  /** Per session, plus one: where its records start; `sessionStart[sessionIds.length] === length`. */
  readonly sessionStart: Uint32Array;
  readonly models: readonly string[];
  readonly configVersions: readonly string[];
  readonly queryCategories: readonly string[];
}

/** The `rankPosition` of a record that was not ranked. */
export const noRank = 0xffff_ffff;
