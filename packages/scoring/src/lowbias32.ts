/**
 * Wellons' "lowbias32" integer finaliser: splitmix32's output for its (already advanced) state, the
 * seeder of `createRng` and `createSfc32`.
 */
export function lowbias32(x: number): number {
  let z = Math.imul(x ^ (x >>> 16), 0x21f0aaad);
  z = Math.imul(z ^ (z >>> 15), 0x735a2d97);
  return (z ^ (z >>> 15)) >>> 0;
}
