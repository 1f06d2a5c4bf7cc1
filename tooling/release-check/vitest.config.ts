import { configDefaults, defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'release-check',
    // `*.slow.test.ts` files belong to the root's `slow` project (the full check builds every package again).
    exclude: [...configDefaults.exclude, '**/*.slow.test.ts'],
  },
});
