/** A standard normal draw (Box–Muller) from a uniform generator. */
export function normalDraw(random: () => number): number {
  const u = 1 - random();
  const v = random();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}
