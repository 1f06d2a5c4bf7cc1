// The coverage study of the influence-share interval of aggregateContributions, in one command:
//
//   pnpm --filter @council/bias-audit study:contributions [--runs N] [--format text|markdown]
//
// Every plant of CONTRIBUTION_PLANTS at 5, 10, 20, 50 and 200 sessions, seeded and deterministic; each
// coverage (pooled over members, and the worst member's) with its Wilson 95% interval, for the package's
// bounded-mean Wilson interval and, beside it, the intervals of comparisonIntervals on the same weights (Student
// t, Wilson with the effective sample size of the sample variance, t on the logit); then a summary per method
// over the rows of 10 sessions and more.
import { parseArgs } from 'node:util';
import { CONTRIBUTION_PLANTS } from '../src/study/contribution-plants.js';
import type { ContributionStudyRow } from '../src/study/contribution-study.js';
import { studyContributionCoverage, trueMeanWeights } from '../src/study/contribution-study.js';

const { values } = parseArgs({ options: { runs: { type: 'string' }, format: { type: 'string' } } });
const runs = values.runs === undefined ? 2000 : Number(values.runs);
if (!Number.isInteger(runs) || runs < 1) {
  process.stderr.write(`--runs must be a positive integer, got ${values.runs}.\n`);
  process.exit(2);
}
const markdown = values.format === 'markdown';
const pct = (x: number): string => `${(100 * x).toFixed(1)}%`;
const head = [
  'plant',
  'sessions',
  'runs',
  'method',
  'coverage',
  '95% interval',
  'worst member',
  'its coverage',
  'mean width',
];
const cells = (r: ContributionStudyRow): string[] => [
  r.plant,
  String(r.sessions),
  String(r.runs),
  r.method,
  pct(r.coverage),
  `${pct(r.lower)}–${pct(r.upper)}`,
  r.worstMember,
  `${pct(r.worstCoverage)} (${pct(r.worstLower)}–${pct(r.worstUpper)})`,
  r.meanWidth.toFixed(3),
];
const started = performance.now();
const results: ContributionStudyRow[] = [];
for (const plant of CONTRIBUTION_PLANTS) {
  const truth = trueMeanWeights(plant, { count: 400_000, seed: 7 });
  for (const sessions of [5, 10, 20, 50, 200])
    results.push(...studyContributionCoverage({ plant, sessions, runs, truth }));
}

/** Per method, over the rows of 10 sessions and more: pooled coverage's range, the lowest worst-member coverage, width against bounded-wilson's. */
function summary(): string[][] {
  const from10 = results.filter((r) => r.sessions >= 10);
  const reference = new Map(
    from10.filter((r) => r.method === 'bounded-wilson').map((r) => [`${r.plant}:${r.sessions}`, r.meanWidth]),
  );
  return [...new Set(from10.map((r) => r.method))].map((method) => {
    const rows = from10.filter((r) => r.method === method);
    const worst = rows.reduce((a, b) => (b.worstCoverage < a.worstCoverage ? b : a));
    const ratios = rows.map((r) => r.meanWidth / reference.get(`${r.plant}:${r.sessions}`)!);
    return [
      method,
      `${pct(Math.min(...rows.map((r) => r.coverage)))}–${pct(Math.max(...rows.map((r) => r.coverage)))}`,
      `${pct(worst.worstCoverage)} (${pct(worst.worstLower)}–${pct(worst.worstUpper)}) ${worst.plant} ${worst.worstMember} at ${worst.sessions}`,
      `${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}`,
    ];
  });
}

function print(table: { head: string[]; rows: string[][] }): void {
  const { head, rows } = table;
  if (markdown) {
    process.stdout.write(
      `| ${head.join(' | ')} |\n|${head.map(() => ' --- ').join('|')}|\n${rows.map((r) => `| ${r.join(' | ')} |`).join('\n')}\n`,
    );
  } else {
    const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
    const line = (r: readonly string[]): string =>
      r
        .map((c, i) => c.padEnd(widths[i]!))
        .join('  ')
        .trimEnd();
    process.stdout.write(`${[line(head), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n')}\n`);
  }
}

print({ head, rows: results.map(cells) });
process.stdout.write('\n');
print({
  head: [
    'method',
    'pooled coverage from 10 sessions',
    'lowest worst-member coverage from 10 sessions',
    'width / bounded-wilson',
  ],
  rows: summary(),
});
process.stderr.write(`${runs} runs per row in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
