// A private generator on purpose: DESIGN.md lets @council/providers import ky and zod only, so it
// cannot use @council/scoring's RNG family without an arrow the map does not have. It is small, and the
// simulated personas' every answer, score and latency is keyed on it, so it stays exactly as it is.

/** FNV-1a over UTF-16 code units, mixed to 32 bits: a stable, platform-independent string hash. */
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

/** A deterministic generator in [0, 1) (mulberry32) seeded by the hash of `parts`. */
export function createSeededRandom(parts: readonly (string | number)[]): () => number {
  let state = hashString(parts.map(String).join('\u0000'));
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A standard normal draw (Box–Muller) from a uniform generator. */
export function normalDraw(random: () => number): number {
  const u = 1 - random();
  const v = random();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}
