import { defineConfig } from 'tsup';
import type { Options } from 'tsup';

// The builds every package and app shares, one place each, imported by relative path from their tsup.config.ts
// (build-time only, so it is a root file rather than a workspace package; turbo's build inputs name it).

/**
 * A published library: ESM only, with declarations and source maps (STYLE, Packaging), for Node unless the
 * package says otherwise (the pure ones build for `platform: 'neutral'`, `target: 'es2022'`).
 */
export function defineLibraryConfig(entry: string[], options: Options = {}): ReturnType<typeof defineConfig> {
  return defineConfig({
    entry,
    format: ['esm'],
    target: 'node20',
    platform: 'node',
    dts: true,
    sourcemap: true,
    clean: true,
    ...options,
  });
}

/**
 * A self-contained executable: every dependency is bundled, so it starts without resolving node_modules.
 * Bundled CommonJS dependencies call `require`, which ESM lacks, hence the shim in the banner (in every chunk).
 */
export function defineExecutableConfig(
  entry: Record<string, string>,
  options: Options = {},
): ReturnType<typeof defineConfig> {
  return defineConfig({
    entry,
    format: ['esm'],
    platform: 'node',
    target: 'node20',
    noExternal: [/.*/],
    sourcemap: false,
    minify: false,
    clean: true,
    dts: false,
    // @council/cli's chunks import each other for ordering only; with "sideEffects": false esbuild drops
    // those bare imports on purpose and would warn about each one.
    esbuildOptions(esbuildOptions) {
      esbuildOptions.logOverride = { ...esbuildOptions.logOverride, 'ignored-bare-import': 'silent' };
    },
    banner: {
      js: [
        '#!/usr/bin/env node',
        "import { createRequire as __councilCreateRequire } from 'node:module';",
        'const require = __councilCreateRequire(import.meta.url);',
      ].join('\n'),
    },
    ...options,
  });
}
