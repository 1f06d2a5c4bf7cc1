/**
 * Strings in code point order, which is the order of their UTF-8 bytes — how ClickHouse compares strings (JS's `<`
 * compares UTF-16 code units). The two differ only where a surrogate (U+D800–DFFF: half of a character beyond U+FFFF)
 * meets U+E000–U+FFFF; moving the surrogates after those gives code point order without encoding anything.
 */
export function byCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    if (x >= 0xd800 && y >= 0xd800) {
      x += x < 0xe000 ? 0x2000 : -0x800;
      y += y < 0xe000 ? 0x2000 : -0x800;
    }
    return x - y;
  }
  return a.length - b.length;
}
