import { describe, expect, it } from 'vitest';
import { createStyle, stripAnsi } from './create-style.js';
import { shouldUseColor } from './should-use-color.js';

describe('shouldUseColor', () => {
  it('is on for a terminal and off for a pipe', () => {
    expect(shouldUseColor({ isTTY: true, env: {} })).toBe(true);
    expect(shouldUseColor({ isTTY: false, env: {} })).toBe(false);
  });

  it('is off under NO_COLOR (any non-empty value), even on a terminal and even with FORCE_COLOR', () => {
    expect(shouldUseColor({ isTTY: true, env: { NO_COLOR: '1' } })).toBe(false);
    expect(shouldUseColor({ isTTY: true, env: { NO_COLOR: 'yes', FORCE_COLOR: '1' } })).toBe(false);
    // no-color.org: an empty NO_COLOR does not count.
    expect(shouldUseColor({ isTTY: true, env: { NO_COLOR: '' } })).toBe(true);
  });

  it('is off for TERM=dumb, and FORCE_COLOR turns it on for a pipe', () => {
    expect(shouldUseColor({ isTTY: true, env: { TERM: 'dumb' } })).toBe(false);
    expect(shouldUseColor({ isTTY: false, env: { FORCE_COLOR: '1' } })).toBe(true);
    expect(shouldUseColor({ isTTY: false, env: { FORCE_COLOR: '0' } })).toBe(false);
  });
});

describe('createStyle', () => {
  it('adds escape codes only when enabled, and stripAnsi removes them', () => {
    expect(createStyle(false).red('x')).toBe('x');
    expect(createStyle(true).red('x')).toBe('\u001b[31mx\u001b[39m');
    expect(stripAnsi(createStyle(true).bold('hello'))).toBe('hello');
  });
});
