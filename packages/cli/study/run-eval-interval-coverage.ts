// The coverage of council eval's 95% intervals in one command: a share of items, Cohen's κ and the council against its
// best member on seeded simulated datasets, each beside the interval it replaced, each rate with its Wilson 95%
// interval. The CLI README's figures are this study's full run.
//
//   pnpm --filter @council/cli study:eval-intervals [--quick] [--scale F] [--part share|kappa|vs-best]…
//                                                   [--format text|markdown]
//
// --quick runs a fifth of every row's datasets (at least 200), as the short slow test does; --scale F any share of
// them. One process (about 3 minutes in full, nearly all of it the council-versus-best part); the same arguments
// print the same table.
import { parseArgs } from 'node:util';
import {
  COVERAGE_STUDY_PARTS,
  formatCoverageTable,
  type CoverageRow,
} from '../src/eval/eval-interval-coverage-study.js';

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    scale: { type: 'string' },
    part: { type: 'string', multiple: true },
    format: { type: 'string', default: 'text' },
    help: { type: 'boolean', default: false },
  },
});
if (values.help) {
  console.log(
    'Usage: study:eval-intervals [--quick] [--scale F] [--part share|kappa|vs-best]… [--format text|markdown]',
  );
  process.exit(0);
}
if (values.quick && values.scale !== undefined) {
  console.error('--quick is --scale 0.2: give one of them, not both.');
  process.exit(2);
}
if (values.format !== 'text' && values.format !== 'markdown') {
  console.error(`--format is text or markdown, got "${values.format}".`);
  process.exit(2);
}
const scale = values.scale === undefined ? (values.quick ? 0.2 : 1) : Number(values.scale);
if (!(scale > 0)) {
  console.error(
    `--scale takes a positive share of the full study's datasets (1 is the full study), not ${values.scale}.`,
  );
  process.exit(2);
}
const names = Object.keys(COVERAGE_STUDY_PARTS) as CoverageRow['part'][];
const unknown = (values.part ?? []).filter((p) => !(names as string[]).includes(p));
if (unknown.length > 0) {
  console.error(`No part named ${unknown.join(', ')}; the parts are ${names.join(', ')}.`);
  process.exit(2);
}
const chosen = values.part === undefined ? names : names.filter((p) => values.part!.includes(p));
const rows: CoverageRow[] = [];
for (const part of chosen) {
  const started = performance.now();
  const partRows = COVERAGE_STUDY_PARTS[part]({ scale });
  rows.push(...partRows);
  console.error(`${part}: ${partRows.length} rows in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}
console.log(formatCoverageTable(rows, values.format === 'markdown' ? 'markdown' : 'text'));
