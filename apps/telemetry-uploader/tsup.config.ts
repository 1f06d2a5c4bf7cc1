import { defineConfig } from 'tsup';

// One self-contained file: every dependency is bundled, so `council-telemetry` starts without resolving
// node_modules. Bundled CommonJS dependencies call `require`, which ESM lacks, hence the shim.
export default defineConfig({
  entry: { 'council-telemetry': 'src/council-telemetry.ts' },
  format: ['esm'],
  platform: 'node',
  target: 'node20',
  noExternal: [/.*/],
  splitting: false,
  sourcemap: false,
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
