// `npm test` / `pnpm test`: set up a fresh clone, then build, lint, typecheck, check the packages
// and run every test, the slow tier included. It ends with the plain line "N passed, N failed" that CI reads.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { ensureDebianPackages } from './ensure-debian-packages.mjs';
import { ensurePnpmAndInstall, run } from './ensure-pnpm.mjs';
import { ensureRealModel } from './ensure-real-model.mjs';

ensurePnpmAndInstall();
ensureDebianPackages();
try {
  await ensureRealModel();
} catch (error) {
  console.error(error.message);
  process.exit(1);
}
run('pnpm', ['turbo', 'run', 'build', 'typecheck', 'check:pkg', '--output-logs=errors-only']);
run('pnpm', ['exec', 'tsc', '--noEmit', '-p', 'tsconfig.json']);
run('pnpm', ['run', 'lint']);

const resultsFile = '.vitest-results.json';
rmSync(resultsFile, { force: true });
const vitest = spawnSync(
  'pnpm',
  ['exec', 'vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${resultsFile}`],
  { stdio: 'inherit' },
);

if (!existsSync(resultsFile)) {
  console.error('vitest wrote no results file: it failed before running any test.');
  process.exit(vitest.status || 1);
}
const results = JSON.parse(readFileSync(resultsFile, 'utf8'));
// A file that fails to load counts as a failure even though it holds no counted test.
const failedSuites = results.testResults.filter(
  (file) => file.status === 'failed' && file.assertionResults.length === 0,
).length;
const failed = results.numFailedTests + failedSuites;
const skipped = results.numPendingTests + results.numTodoTests;
// The slow tier (the root's `slow` project: `*.slow.test.ts`, studies and stress runs) is in the sum below; its own
// share is printed first, so a slow run's cost and failures are seen apart from the unit tier's.
const slowFiles = results.testResults.filter((file) => file.name.endsWith('.slow.test.ts'));
if (slowFiles.length > 0) {
  const count = (status) =>
    slowFiles.reduce((n, file) => n + file.assertionResults.filter((test) => test.status === status).length, 0);
  const slowFailed =
    count('failed') + slowFiles.filter((file) => file.status === 'failed' && file.assertionResults.length === 0).length;
  const seconds = slowFiles.reduce((sum, file) => sum + (file.endTime - file.startTime), 0) / 1000;
  console.log(
    `slow tier: ${count('passed')} passed, ${slowFailed} failed in ${slowFiles.length} files (${seconds.toFixed(0)} s of file time)`,
  );
}
console.log(`${results.numPassedTests} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 || vitest.status !== 0 ? 1 : 0);
