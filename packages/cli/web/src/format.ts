/** A timestamp in the reader's locale, to the minute. */
export function formatTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime())
    ? iso
    : date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

/** A number to `digits` decimals, or "–" when there is none; one that rounds to zero has no minus sign ("-0.00"). */
export function fixed(value: number | null | undefined, digits = 2): string {
  if (typeof value !== 'number' || !Number.isFinite(value)) return '–';
  const text = value.toFixed(digits);
  return /^-0(\.0*)?$/.test(text) ? text.slice(1) : text;
}

type Maybe = number | null | undefined;

/** "0.42 [0.31, 0.55]": an estimate with its interval, when it has one. */
export function withInterval(estimate: Maybe, lower: Maybe, upper: Maybe): string {
  const interval = typeof lower === 'number' && typeof upper === 'number' ? ` [${fixed(lower)}, ${fixed(upper)}]` : '';
  return `${fixed(estimate)}${interval}`;
}

/** A local date (yyyy-mm-dd from a date input) as the ISO instant of its start or end. */
export function dayBound(day: string, end: boolean): string | undefined {
  if (!day) return undefined;
  const date = new Date(`${day}T${end ? '23:59:59.999' : '00:00:00'}`);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}
