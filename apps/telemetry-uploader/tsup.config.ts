import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { 'council-telemetry': 'src/council-telemetry.ts' },
  format: ['esm'],
  platform: 'node',
  target: 'node20',
  noExternal: [/.*/],
  splitting: false,
  clean: true,
  dts: false,
  banner: {
    js: [
      '#!/usr/bin/env node',
      "import { createRequire as __councilCreateRequire } from 'node:module';",
      'const require = __councilCreateRequire(import.meta.url);',
    ].join('\n'),
  },
});
