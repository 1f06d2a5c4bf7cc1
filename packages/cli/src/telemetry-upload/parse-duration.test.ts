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
    expect(parseDuration('596h', '--interval')).toBe(2_145_600_000);
  });

  it('refuses zero, negatives and words with a usage error naming the option', () => {
    // 0.4ms rounds to 0 (a busy loop); 600h is past what a Node timer can wait (2^31 - 1 ms ≈ 596.5 h) and would fire at once.
    for (const text of ['0s', '-5s', 'soon', '10 parsecs', '', '0.4ms', '600h', '99999999999h']) {
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
