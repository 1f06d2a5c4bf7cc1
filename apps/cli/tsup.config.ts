import { defineConfig } from 'tsup';

// Self-contained: every dependency is bundled, so `council` starts without resolving node_modules.
// Split into chunks at the commands' dynamic imports, so a command loads (and V8 compiles) only its own
// code: `bias-report` skips the providers, the council and the MCP SDK, ≈ 60 ms of a cold start.
// Bundled CommonJS dependencies call `require`, which ESM lacks, hence the shim (in every chunk).
export default defineConfig({
  entry: { council: 'src/council.ts' },
  format: ['esm'],
  platform: 'node',
  target: 'node20',
  noExternal: [/.*/],
  splitting: true,
  sourcemap: false,
  minify: false,
  clean: true,
  dts: false,
  // @council/cli's chunks import each other for ordering only; with "sideEffects": false esbuild drops
  // those bare imports on purpose and would warn about each one.
  esbuildOptions(options) {
    options.logOverride = { ...options.logOverride, 'ignored-bare-import': 'silent' };
  },
  banner: {
    js: [
      '#!/usr/bin/env node',
      "import { createRequire as __councilCreateRequire } from 'node:module';",
      'const require = __councilCreateRequire(import.meta.url);',
    ].join('\n'),
  },
});
