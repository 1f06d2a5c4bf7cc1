/** Per interned session, what the window needs while reading: kept in typed arrays, a few bytes a session. */
export class SessionWindow {
  /** Earliest time of its records in the window (epoch ms). */
  key = new Float64Array(1024);
  /** Its records in the window. */
  records = new Uint32Array(1024);
  /** 0: none of its records is in the window yet; 1: its records are held; 2: dropped (fell out of the last N). */
  state = new Uint8Array(1024);
  /** Sessions whose records are held. */
  held = 0;

  /** Makes room for session index `i`. */
  ensure(i: number): void {
    if (i < this.state.length) return;
    const size = Math.max(i + 1, Math.ceil(this.state.length * 1.5));
    const key = new Float64Array(size);
    key.set(this.key);
    const records = new Uint32Array(size);
    records.set(this.records);
    const state = new Uint8Array(size);
    state.set(this.state);
    this.key = key;
    this.records = records;
    this.state = state;
  }
}
