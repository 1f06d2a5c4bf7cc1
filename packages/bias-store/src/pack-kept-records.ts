import type { BiasColumns } from '@council/bias-audit';

/** `BiasColumns` with its fields writable, for building the columns of a window that lost some records. */
export type WritableBiasColumns = { -readonly [K in keyof BiasColumns]: BiasColumns[K] };

/**
 * The per-record columns without the records `drop` marks with 1, compacted in place (views on the same buffers, so the
 * input's record columns are spent); the columns a report read may leave out are packed where present. The sessions'
 * columns (`sessionIds`, `sessionStart`, `sessionTime`) are the input's: the caller sets them for the records kept.
 */
export function packKeptRecords(columns: BiasColumns, drop: Uint8Array, kept: number): WritableBiasColumns {
  const pack = <A extends Uint8Array | Uint16Array | Uint32Array | Float32Array | Float64Array>(values: A): A => {
    let w = 0;
    for (let i = 0; i < values.length; i++) if (drop[i] === 0) values[w++] = values[i]!;
    return values.subarray(0, w) as A;
  };
  const packed: WritableBiasColumns = {
    ...columns,
    length: kept,
    reviewer: pack(columns.reviewer),
    candidate: pack(columns.candidate),
    position: pack(columns.position),
    responseLengthChars: pack(columns.responseLengthChars),
    score: pack(columns.score),
    rankPosition: pack(columns.rankPosition),
    configVersion: pack(columns.configVersion),
  };
  if (columns.session !== undefined) packed.session = pack(columns.session);
  if (columns.time !== undefined) packed.time = pack(columns.time);
  if (columns.queryCategory !== undefined) packed.queryCategory = pack(columns.queryCategory);
  if (columns.positionIsDisplayOrder !== undefined)
    packed.positionIsDisplayOrder = pack(columns.positionIsDisplayOrder);
  return packed;
}
