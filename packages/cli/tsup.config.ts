import { defineLibraryConfig } from '../../tsup.base.config.js';
import { WEB_ASSETS_MODULE, webAssetsModuleSource } from './web/build.mjs';

// The main entry, `./run` (runCli and runTelemetryCli alone: the bundled executable starts from it, so
// `council --version` loads neither zod nor the bias store) and `./test` (helpers for the uploader's tests and benchmarks).
export default defineLibraryConfig(['src/index.ts', 'src/run.ts', 'src/test/index.ts'], {
  // Chunks: each command's module (and its dependencies) loads only when that command runs, which keeps
  // `council --version` fast in the app's bundle too.
  splitting: true,
  // `council serve`'s web UI: web/build.mjs bundles web/src into strings that become the module
  // `council-web-assets`, imported by src/serve/web-assets.ts only, so the UI ships inside the serve chunk
  // (and in apps/cli's bundle of it) and no other command loads it.
  esbuildPlugins: [
    {
      name: 'council-web-assets',
      setup(build) {
        build.onResolve({ filter: new RegExp(`^${WEB_ASSETS_MODULE}$`) }, () => ({
          path: WEB_ASSETS_MODULE,
          namespace: WEB_ASSETS_MODULE,
        }));
        build.onLoad({ filter: /.*/, namespace: WEB_ASSETS_MODULE }, async () => ({
          contents: await webAssetsModuleSource(),
          loader: 'js',
        }));
      },
    },
  ],
});
