import { defineConfig } from 'tsup';

export default defineConfig({
  // org-id on its own too: the CLI checks --org on every command, and importing it from the index would
  // evaluate all of core (its providers, ky, yaml, the fetch globals) before `bias-report` reads a line.
  entry: ['src/index.ts', 'src/org-id.ts'],
  format: ['esm'],
  target: 'node20',
  platform: 'node',
  dts: true,
  sourcemap: true,
  clean: true,
});
