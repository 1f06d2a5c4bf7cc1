import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm'],
  target: 'node20',
  platform: 'node',
  dts: true,
  sourcemap: true,
  clean: true,
  // One file: the app bundles it again, and lazy command modules stay lazy through esbuild's own wrappers.
  splitting: false,
});
