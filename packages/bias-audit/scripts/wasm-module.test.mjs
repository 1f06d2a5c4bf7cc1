import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { wasmModuleIsCurrent } from '../../../scripts/build-wasm.mjs';

const packageDir = fileURLToPath(new URL('..', import.meta.url));

describe('the score kernels module', () => {
  // The fit runs the committed bytes (src/internal/score-kernels-wasm.ts): an edit to assembly/score-kernels.ts must
  // come with them, made by `pnpm build:wasm` (the package's build runs it).
  it('holds what assembly/score-kernels.ts compiles to', { timeout: 60_000 }, async () => {
    expect(
      await wasmModuleIsCurrent(packageDir, 'assembly/score-kernels.ts', 'src/internal/score-kernels-wasm.ts'),
    ).toBe(true);
  });
});
