import { defineConfig } from 'tsup';

export default defineConfig({
  // The main entry and `./test` (helpers for the telemetry uploader's tests and benchmarks).
  entry: ['src/index.ts', 'src/test/index.ts'],
  format: ['esm'],
  target: 'node20',
  platform: 'node',
  dts: true,
  sourcemap: true,
  clean: true,
  // Chunks: each command's module (and its dependencies) loads only when that command runs, which keeps
  // `council --version` fast in the app's bundle too.
  splitting: true,
});
