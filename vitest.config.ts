import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      // The unit tier: one project per package (each excludes `*.slow.test.ts`, which the slow tier runs).
      'packages/*',
      'apps/*',
      'tooling/real-model',
      // `pnpm release:check --quick`: the tarballs installed into an empty npm project (the full check is slow tier).
      'tooling/release-check',
      {
        // The slow tier: studies and stress runs, in their own project with their own time budget. `npm test` runs it
        // with the rest; `pnpm test:slow` runs it alone. A slow test of @council/cli would need that package's
        // web-assets plugin here too.
        test: {
          name: 'slow',
          include: ['{packages,apps,tooling}/*/**/*.slow.test.ts'],
          // Minutes, not seconds: a study or a stress round on a loaded 2-core machine (the stale-lock stress took
          // 121 s at load 15–24). A test that needs more says so itself.
          testTimeout: 600_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
