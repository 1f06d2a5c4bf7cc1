// `pnpm bench [filter…]`: runs every `packages/*/bench/*.bench.ts` and `apps/*/bench/*.bench.ts`
// (or those whose path contains a filter) and prints one table. Benchmarks are not tests: nothing
// here asserts a time. `--json FILE` also writes the rows as JSON.
import { readdirSync, existsSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { formatTable, runSuite } from '@council/bench';
import type { BenchRow, BenchSuite } from '@council/bench';

const root = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const jsonIndex = args.indexOf('--json');
const jsonFile = jsonIndex >= 0 ? args[jsonIndex + 1] : undefined;
const filters = args.filter((_, i) => jsonIndex < 0 || (i !== jsonIndex && i !== jsonIndex + 1));

const files: string[] = [];
for (const group of ['packages', 'apps']) {
  for (const dir of readdirSync(join(root, group))) {
    const benchDir = join(root, group, dir, 'bench');
    if (!existsSync(benchDir)) continue;
    for (const file of readdirSync(benchDir).sort()) {
      if (file.endsWith('.bench.ts')) files.push(join(benchDir, file));
    }
  }
}
const selected = files.filter(
  (f) => filters.length === 0 || filters.some((filter) => relative(root, f).includes(filter)),
);
if (selected.length === 0) {
  console.error(filters.length ? `No benchmark file matches ${filters.join(', ')}.` : 'No benchmark files found.');
  process.exit(1);
}

const rows: BenchRow[] = [];
for (const file of selected) {
  const mod = (await import(pathToFileURL(file).href)) as { suite?: BenchSuite };
  if (!mod.suite) throw new Error(`${relative(root, file)} does not export a "suite" (use defineBenchSuite).`);
  process.stderr.write(`running ${relative(root, file)}…\n`);
  rows.push(...(await runSuite(mod.suite)));
}
console.log(formatTable(rows));
if (jsonFile) writeFileSync(jsonFile, JSON.stringify(rows, null, 2) + '\n');
