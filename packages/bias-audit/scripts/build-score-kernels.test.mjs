import { describe, expect, it } from 'vitest';
import { scoreKernelsModuleIsCurrent } from './build-score-kernels.mjs';

describe('the score kernels module', () => {
  // The fit runs the committed bytes (src/internal/score-kernels-wasm.ts): an edit to assembly/score-kernels.ts must
  // come with them, made by `pnpm build:wasm` (the package's build runs it).
  it('holds what assembly/score-kernels.ts compiles to', { timeout: 60_000 }, async () => {
    expect(await scoreKernelsModuleIsCurrent()).toBe(true);
  });
});
