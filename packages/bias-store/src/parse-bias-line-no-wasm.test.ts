import { afterEach, describe, expect, it, vi } from 'vitest';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.resetModules();
});

describe('a Node.js without WebAssembly (node --jitless)', () => {
  it('the reader says what is missing and what to do, instead of failing on an undefined global', async () => {
    vi.resetModules();
    vi.stubGlobal('WebAssembly', undefined);
    const { BiasLineFields, parseBiasLineFast } = await import('./parse-bias-line.js');
    const line = Buffer.from('{}');
    expect(() => parseBiasLineFast(line, 0, line.length, new BiasLineFields())).toThrow(
      /runs without WebAssembly .*start node without --jitless/,
    );
  });
});
