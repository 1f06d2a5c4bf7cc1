import { describe, expect, it } from 'vitest';
import { CliError } from './cli-error.js';
import { parseChoiceOption, parseDurationOption, parseIntegerOption, parseListOption } from './parse-option.js';

function usageMessage(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    expect(CliError.isInstance(error) && error.code).toBe('USAGE');
    return (error as Error).message;
  }
  throw new Error('expected a usage error');
}

describe('option parsers', () => {
  it('reads whole numbers and rejects words, fractions and out-of-range values with the option name', () => {
    expect(parseIntegerOption('sessions', 50)).toBe(50);
    expect(parseIntegerOption('sessions', '7')).toBe(7);
    expect(parseIntegerOption('sessions', undefined)).toBeUndefined();
    expect(usageMessage(() => parseIntegerOption('sessions', 'ten'))).toBe(
      '--sessions expects a whole number, got "ten". Example: --sessions 1.',
    );
    expect(usageMessage(() => parseIntegerOption('sessions', 2.5))).toMatch(
      /--sessions expects a whole number, got "2.5"/,
    );
    expect(usageMessage(() => parseIntegerOption('concurrency', 0, { min: 1 }))).toBe(
      '--concurrency must be at least 1, got 0.',
    );
    expect(usageMessage(() => parseIntegerOption('days', true))).toMatch(/--days expects a whole number, got ""/);
  });

  it('reads durations in seconds by default, and ms, s, m suffixes', () => {
    expect(parseDurationOption('timeout', 30)).toBe(30_000);
    expect(parseDurationOption('timeout', '1500ms')).toBe(1500);
    expect(parseDurationOption('timeout', '2m')).toBe(120_000);
    expect(parseDurationOption('timeout', '0.5s')).toBe(500);
    expect(usageMessage(() => parseDurationOption('timeout', 'soon'))).toMatch(/--timeout expects a duration/);
    expect(usageMessage(() => parseDurationOption('timeout', '0'))).toBe(
      '--timeout must be positive, got "0". Example: --timeout 60s.',
    );
    // Past 2^31 − 1 ms a timer would fire at once; below 1 ms it would round to no deadline at all.
    expect(parseDurationOption('timeout', '2147483647ms')).toBe(2_147_483_647);
    expect(usageMessage(() => parseDurationOption('timeout', '2147483648ms'))).toBe(
      '--timeout must be at most 24 days (2147483647ms), got "2147483648ms".',
    );
    expect(usageMessage(() => parseDurationOption('timeout', '99999999999'))).toMatch(
      /^--timeout must be at most 24 days/,
    );
    expect(usageMessage(() => parseDurationOption('timeout', '0.4ms'))).toBe(
      '--timeout must be at least 1ms, got "0.4ms".',
    );
  });

  it('splits comma lists, drops empty items and rejects duplicates', () => {
    expect(parseListOption('models', 'a, b,,c')).toEqual(['a', 'b', 'c']);
    expect(usageMessage(() => parseListOption('models', 'a,b,a'))).toBe(
      '--models lists "a" twice; give each only once.',
    );
    expect(usageMessage(() => parseListOption('models', ','))).toMatch(/comma-separated list/);
  });

  it('accepts only the listed choices', () => {
    expect(parseChoiceOption('format', 'csv', ['text', 'json', 'csv', 'html'])).toBe('csv');
    expect(usageMessage(() => parseChoiceOption('format', 'xml', ['text', 'json']))).toBe(
      '--format must be one of text, json, got "xml".',
    );
  });
});
