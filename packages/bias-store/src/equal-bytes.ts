// Byte-range comparisons for the reader's hot loops: four bytes a compare through DataViews (unaligned
// little-endian reads that V8 compiles to single loads), then the tail byte by byte.

/** Bytes to compare against, with a DataView made once. */
export interface KnownBytes {
  bytes: Uint8Array;
  view: DataView;
  length: number;
}

export function knownBytes(bytes: Uint8Array, length = bytes.length): KnownBytes {
  return { bytes, view: new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength), length };
}

let lastBuffer: Uint8Array | null = null;
let lastView: DataView = new DataView(new ArrayBuffer(0));

/** A DataView of `buf` (made once per buffer, not per call: a chunk holds thousands of lines). */
function viewOf(buf: Uint8Array): DataView {
  if (buf !== lastBuffer) {
    lastBuffer = buf;
    lastView = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  }
  return lastView;
}

/** Whether `buf[at … at + known.length)` equals `known`; the range must lie inside `buf`. */
export function equalBytes(buf: Uint8Array, at: number, known: KnownBytes): boolean {
  const n = known.length;
  const va = viewOf(buf);
  const vb = known.view;
  let k = 0;
  for (; k + 4 <= n; k += 4) if (va.getUint32(at + k, true) !== vb.getUint32(k, true)) return false;
  const bytes = known.bytes;
  for (; k < n; k++) if (buf[at + k] !== bytes[k]) return false;
  return true;
}
