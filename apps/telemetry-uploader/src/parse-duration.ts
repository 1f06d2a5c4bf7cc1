import { TelemetryUploadError } from './telemetry-upload-error.js';

const units: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/**
 * Reads an interval such as `60s`, `5m`, `1h`, `500ms` or a bare number of seconds (`90`), in milliseconds.
 * Throws a `TelemetryUploadError` (`USAGE`) naming the option for anything else or for zero.
 */
export function parseDuration(text: string, option: string): number {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h)?\s*$/.exec(text);
  const value = match === null ? Number.NaN : Number(match[1]) * units[match[2] ?? 's']!;
  if (!Number.isFinite(value) || value <= 0) {
    throw new TelemetryUploadError({
      code: 'USAGE',
      message: `${option} ${JSON.stringify(text.slice(0, 40))} is not an interval; use a positive number with a unit, e.g. 60s, 5m, 1h or 500ms.`,
    });
  }
  return Math.round(value);
}
