import { configDefaults, defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'bias-audit',
    // `*.slow.test.ts` files belong to the root's `slow` project (studies and stress runs).
    exclude: [...configDefaults.exclude, '**/*.slow.test.ts'],
  },
});
