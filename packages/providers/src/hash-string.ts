/**
 * FNV-1a over UTF-16 code units, mixed to 32 bits: a stable, platform-independent string hash. It keys every
 * simulated answer, score and latency (`createMulberry32FromParts`), so it stays exactly as it is.
 */
export function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  return h >>> 0;
}
