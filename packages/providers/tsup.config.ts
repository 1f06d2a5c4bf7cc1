import { defineConfig } from 'tsup';

export default defineConfig({
  // scrub-secrets on its own too: the CLI scrubs every stderr line of every command, and importing it from the index
  // would evaluate all of providers (zod, ky, whose module load builds a Request and so loads Node's undici) before
  // `bias-report` reads a line.
  entry: ['src/index.ts', 'src/scrub-secrets.ts', 'src/test/index.ts'],
  format: ['esm'],
  target: 'node20',
  platform: 'node',
  dts: true,
  sourcemap: true,
  clean: true,
});
