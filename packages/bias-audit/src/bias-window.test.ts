import { describe, expect, it } from 'vitest';
import { BiasAuditError } from './bias-audit-error.js';
import { DEFAULT_BIAS_WINDOW, orderSessionsByStart, parseBiasWindow, safeParseBiasWindow } from './bias-window.js';

describe('parseBiasWindow', () => {
  const now = new Date('2026-11-22T12:00:00Z');

  it('reads no bound as Infinity, and days back from now', () => {
    const window = parseBiasWindow({ now, days: 2 });
    expect(window.sessions).toBe(Number.POSITIVE_INFINITY);
    expect(window.nowMs).toBe(Date.UTC(2026, 10, 22, 12));
    // 2 days of 86,400,000 ms before noon of the 22nd: noon of the 20th.
    expect(window.earliestMs).toBe(Date.UTC(2026, 10, 20, 12));
    expect(parseBiasWindow({ now }).earliestMs).toBe(Number.NEGATIVE_INFINITY);
  });

  it('takes the given defaults where a bound is missing, and an ISO string for now', () => {
    const window = parseBiasWindow({ now: '2026-11-22T12:00:00Z', sessions: 7 }, { defaults: DEFAULT_BIAS_WINDOW });
    expect(window).toMatchObject({ sessions: 7, days: 30, nowMs: Date.UTC(2026, 10, 22, 12) });
    expect(DEFAULT_BIAS_WINDOW).toEqual({ sessions: 100, days: 30 });
  });

  it('starts at the later of now less days and since', () => {
    // now − 2 days is noon of the 20th: a since on the 21st is later, one on the 19th earlier.
    expect(parseBiasWindow({ now, days: 2, since: '2026-11-21' }).earliestMs).toBe(Date.UTC(2026, 10, 21));
    expect(parseBiasWindow({ now, days: 2, since: new Date('2026-11-19T00:00:00Z') }).earliestMs).toBe(
      Date.UTC(2026, 10, 20, 12),
    );
    expect(parseBiasWindow({ now, since: '2026-11-19T06:00:00Z' }).earliestMs).toBe(Date.UTC(2026, 10, 19, 6));
    expect(() => parseBiasWindow({ since: 'last week' })).toThrow(/since must be an ISO 8601 date-time/);
  });

  it('is unchanged by a second check, filters included', () => {
    const window = parseBiasWindow({ now, sessions: 3, days: 1.5, model: 'm', configVersion: '1.0.0' });
    expect(parseBiasWindow(window)).toEqual(window);
  });

  it('refuses a bad bound, naming the caller and the option', () => {
    const bad = (options: object): string => {
      const parsed = safeParseBiasWindow(options, { caller: 'reader' });
      if (parsed.success) throw new Error('accepted');
      expect(BiasAuditError.isInstance(parsed.error)).toBe(true);
      expect(parsed.error.code).toBe('INVALID_OPTION');
      return parsed.error.message;
    };
    expect(bad({ sessions: 0 })).toBe('reader: sessions must be a positive integer (or Infinity), got 0.');
    expect(bad({ sessions: 2.5 })).toMatch(/sessions must be a positive integer/);
    expect(bad({ days: -1 })).toBe('reader: days must be a positive number of days (or Infinity), got -1.');
    expect(bad({ days: Number.NaN })).toMatch(/days must be/);
    expect(bad({ now: new Date(Number.NaN) })).toBe('reader: now is an invalid Date.');
    expect(bad({ now: 'soon' })).toMatch(/now must be a Date or an ISO 8601 string, got soon/);
    expect(bad({ model: 3 })).toMatch(/model must be a string/);
    expect(() => parseBiasWindow({ sessions: -1 })).toThrow(BiasAuditError);
  });
});

describe('orderSessionsByStart', () => {
  it('orders sessions oldest first, ties by id in UTF-16 order', () => {
    const ids = ['b', 'a', 's\uE000', 's\u{1F600}', 'c'];
    const start = [5, 5, 1, 1, 0];
    // c (0) first; the two at 1: U+1F600 is the surrogate pair D83D DE00, before U+E000 in UTF-16; then a, b at 5.
    expect(orderSessionsByStart([0, 1, 2, 3, 4], start, ids).map((i) => ids[i])).toEqual([
      'c',
      's\u{1F600}',
      's\uE000',
      'a',
      'b',
    ]);
  });
});
