/**
 * The anonymous label for the answer shown at `displayIndex` (0-based): `Response A` … `Response Z`,
 * then `Response AA`, `Response AB`, … (bijective base 26, like spreadsheet columns). Labels follow
 * presentation order, ADR-015's invariant: `Response A` is always the first answer a reviewer sees.
 */
export function responseLabel(displayIndex: number): string {
  let n = Math.trunc(displayIndex) + 1;
  let letters = '';
  while (n > 0) {
    const rem = (n - 1) % 26;
    letters = String.fromCharCode(65 + rem) + letters;
    n = Math.floor((n - 1) / 26);
  }
  return `Response ${letters}`;
}
