import { defineConfig } from 'tsup';

// Two builds: the `council-telemetry` executable (one self-contained file; bundled CommonJS
// dependencies call `require`, which ESM lacks, hence the shim) and the library entry that
// apps/cli imports (`runTelemetryCli`), with declarations.
export default defineConfig([
  {
    entry: { 'council-telemetry': 'src/council-telemetry.ts' },
    format: ['esm'],
    platform: 'node',
    target: 'node20',
    noExternal: [/.*/],
    splitting: false,
    clean: false,
    dts: false,
    banner: {
      js: [
        '#!/usr/bin/env node',
        "import { createRequire as __councilCreateRequire } from 'node:module';",
        'const require = __councilCreateRequire(import.meta.url);',
      ].join('\n'),
    },
  },
  {
    entry: { index: 'src/index.ts' },
    format: ['esm'],
    platform: 'node',
    target: 'node20',
    splitting: false,
    sourcemap: true,
    clean: false,
    dts: true,
  },
]);
