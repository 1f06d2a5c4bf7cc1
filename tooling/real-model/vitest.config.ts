import { configDefaults, defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'real-model',
    // `*.slow.test.ts` files belong to the root's `slow` project (studies and stress runs).
    exclude: [...configDefaults.exclude, '**/*.slow.test.ts'],
    // Each file loads the model and keeps a core busy: run them one after another.
    fileParallelism: false,
  },
});
