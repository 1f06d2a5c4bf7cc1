/** |actual − expected| / |expected| (absolute error when expected is 0): for tests against references. */
export function relativeError(actual: number, expected: number): number {
  if (expected === actual) return 0;
  if (expected === 0) return Math.abs(actual);
  return Math.abs(actual - expected) / Math.abs(expected);
}
