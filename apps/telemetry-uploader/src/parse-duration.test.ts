import { describe, expect, it } from 'vitest';
import { parseDuration } from './parse-duration.js';
import { TelemetryUploadError } from './telemetry-upload-error.js';

describe('parseDuration', () => {
  it('reads ms, s, m, h and bare seconds', () => {
    expect(parseDuration('60s', '--interval')).toBe(60_000);
    expect(parseDuration('5m', '--interval')).toBe(300_000);
    expect(parseDuration('1h', '--interval')).toBe(3_600_000);
    expect(parseDuration('250ms', '--interval')).toBe(250);
    expect(parseDuration('90', '--interval')).toBe(90_000);
    expect(parseDuration('1.5m', '--interval')).toBe(90_000);
  });

  it('refuses zero, negatives and words with a usage error naming the option', () => {
    for (const text of ['0s', '-5s', 'soon', '10 parsecs', '']) {
      let error: unknown;
      try {
        parseDuration(text, '--interval');
      } catch (caught) {
        error = caught;
      }
      expect(TelemetryUploadError.isInstance(error) && error.code).toBe('USAGE');
      expect((error as Error).message).toContain('--interval');
    }
  });
});
