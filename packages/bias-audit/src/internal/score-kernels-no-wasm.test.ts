import { afterEach, describe, expect, it, vi } from 'vitest';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.resetModules();
});

describe('a Node.js without WebAssembly (node --jitless)', () => {
  it('the kernels say what is missing and what to do, instead of failing on an undefined global', async () => {
    vi.resetModules();
    vi.stubGlobal('WebAssembly', undefined);
    const { scoreKernels } = await import('./score-kernels.js');
    expect(() => scoreKernels()).toThrow(/runs without WebAssembly .*start node without --jitless/);
  });
});
