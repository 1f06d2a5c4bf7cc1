import { TelemetryUploadError } from './telemetry-upload-error.js';

const units: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** The longest wait a Node timer holds (2^31 - 1 ms, about 24.8 days); a longer one fires at once. */
const longestMs = 2 ** 31 - 1;

/**
 * Reads an interval such as `60s`, `5m`, `1h`, `500ms` or a bare number of seconds (`90`), in milliseconds.
 * Throws a `TelemetryUploadError` (`USAGE`) naming the option for anything else, for less than 1 ms,
 * and for more than a timer can wait (about 24 days), which would otherwise fire at once and loop.
 */
export function parseDuration(text: string, option: string): number {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h)?\s*$/.exec(text);
  const value = match === null ? Number.NaN : Math.round(Number(match[1]) * units[match[2] ?? 's']!);
  if (value > longestMs) {
    throw new TelemetryUploadError({
      code: 'USAGE',
      message: `${option} ${JSON.stringify(text.slice(0, 40))} is too long; the longest interval is 596h (about 24 days).`,
    });
  }
  if (!Number.isFinite(value) || value < 1) {
    throw new TelemetryUploadError({
      code: 'USAGE',
      message: `${option} ${JSON.stringify(text.slice(0, 40))} is not an interval; use a positive number with a unit, e.g. 60s, 5m, 1h or 500ms.`,
    });
  }
  return value;
}
