import { configDefaults, defineProject } from 'vitest/config';
import { WEB_ASSETS_MODULE, webAssetsModuleSource } from './web/build.mjs';

const resolvedWebAssets = `\0${WEB_ASSETS_MODULE}`;

export default defineProject({
  // The same `council-web-assets` module as tsup.config.ts builds, so tests of src/serve serve the real UI.
  plugins: [
    {
      name: 'council-web-assets',
      resolveId: (id: string) => (id === WEB_ASSETS_MODULE ? resolvedWebAssets : undefined),
      load: (id: string) => (id === resolvedWebAssets ? webAssetsModuleSource() : undefined),
    },
  ],
  test: {
    name: 'cli',
    // `*.slow.test.ts` files belong to the root's `slow` project (studies and stress runs).
    exclude: [...configDefaults.exclude, '**/*.slow.test.ts'],
  },
});
