import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineBenchSuite } from '@council/bench';

const bundle = fileURLToPath(new URL('../dist/council.js', import.meta.url));
const homes: string[] = [];

// Issue 8's target: `council demo` (1 visible + 40 simulated sessions and the report) in ≤ 10 s.
export const suite = defineBenchSuite({
  name: 'cli',
  cases: [
    {
      name: 'council demo (41 simulated sessions + report)',
      budgetMs: 10_000,
      iterations: 3,
      fn: () => {
        const home = mkdtempSync(join(tmpdir(), 'council-bench-demo-'));
        homes.push(home);
        execFileSync(process.execPath, [bundle, 'demo', '--home', home], { stdio: 'ignore' });
      },
    },
  ],
  teardown: () => {
    for (const home of homes) rmSync(home, { recursive: true, force: true });
  },
});
