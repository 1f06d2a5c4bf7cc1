import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { defineBenchSuite } from '@council/bench';

const bundle = fileURLToPath(new URL('../dist/council.js', import.meta.url));

// Issue 8's target: `council --version` starts within 3× a bare `node -e 0` on the same machine.
export const suite = defineBenchSuite({
  name: 'cli',
  cases: [
    { name: 'node -e 0', iterations: 15, fn: () => execFileSync(process.execPath, ['-e', '0']) },
    {
      name: 'council --version',
      baseline: 'node -e 0',
      iterations: 15,
      fn: () => execFileSync(process.execPath, [bundle, '--version']),
    },
  ],
});
