/**
 * The record keys (SHA-256 digests) met so far in one load, kept as their first 96 bits in an open-addressing table
 * of 32-bit words: 12–24 bytes a record, where a `Set` of the hex keys would take about 100. Two different records
 * share 96 bits with probability about n²/2⁹⁷ (2.5·10⁻¹⁷ for 2 million records).
 */
export class RecordKeySet {
  private words = new Uint32Array(3 * 1024);
  private mask = 1023;
  size = 0;

  /** Adds a key (a SHA-256 digest in hex); returns false when it was already there. */
  add(hex: string): boolean {
    let a = Number.parseInt(hex.slice(0, 8), 16);
    const b = Number.parseInt(hex.slice(8, 16), 16);
    const c = Number.parseInt(hex.slice(16, 24), 16);
    if (a === 0 && b === 0 && c === 0) a = 1; // all-zero words mark an empty slot
    if (!this.insert(a, b, c)) return false;
    if (++this.size * 2 > this.mask + 1) this.grow();
    return true;
  }

  private insert(a: number, b: number, c: number): boolean {
    const { words, mask } = this;
    // The digest's bits are uniform, so its low word is as good a hash as any.
    for (let slot = a & mask; ; slot = (slot + 1) & mask) {
      const at = slot * 3;
      const x = words[at]!;
      if (x === 0 && words[at + 1] === 0 && words[at + 2] === 0) {
        words[at] = a;
        words[at + 1] = b;
        words[at + 2] = c;
        return true;
      }
      if (x === a && words[at + 1] === b && words[at + 2] === c) return false;
    }
  }

  private grow(): void {
    const old = this.words;
    this.mask = this.mask * 2 + 1;
    this.words = new Uint32Array(3 * (this.mask + 1));
    for (let at = 0; at < old.length; at += 3) {
      if (old[at] !== 0 || old[at + 1] !== 0 || old[at + 2] !== 0) this.insert(old[at]!, old[at + 1]!, old[at + 2]!);
    }
  }
}
