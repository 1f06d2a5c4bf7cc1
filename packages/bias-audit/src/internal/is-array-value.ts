/** Array.isArray without narrowing the checked value to any[] (which would erase a generic element type). */
export function isArrayValue(value: unknown): boolean {
  return Array.isArray(value);
}
