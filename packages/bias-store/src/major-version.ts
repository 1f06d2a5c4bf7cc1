/** The major version in a version field: an integer as it is, or the digits before the first dot of "1", "1.1.0", "2.0.0"; else null. */
export function majorOf(value: unknown): number | null {
  if (typeof value === 'number' && Number.isInteger(value)) return value;
  if (typeof value === 'string') {
    // No regex: this runs on every line.
    const dot = value.indexOf('.');
    const head = dot === -1 ? value : value.slice(0, dot);
    if (head.length > 0 && head.length < 10 && /^\d+$/.test(head)) return Number(head);
  }
  return null;
}
