import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { wasmModuleIsCurrent } from '../../../scripts/build-wasm.mjs';

const packageDir = fileURLToPath(new URL('..', import.meta.url));

describe('the bias line parser module', () => {
  // The reader runs the committed bytes (src/internal/parse-bias-line-wasm.ts): an edit to assembly/parse-bias-line.ts
  // must come with them, made by `pnpm build:wasm` (the package's build runs it).
  it('holds what assembly/parse-bias-line.ts compiles to', { timeout: 60_000 }, async () => {
    expect(
      await wasmModuleIsCurrent(packageDir, 'assembly/parse-bias-line.ts', 'src/internal/parse-bias-line-wasm.ts'),
    ).toBe(true);
  });
});
