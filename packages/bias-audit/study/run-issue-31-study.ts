// Issue 31's study in one command: the calibrated leaderboard, partial pooling, the effective number of judges and
// style-controlled ratings on seeded simulated councils, each rate with its Wilson 95% interval.
//
//   pnpm --filter @council/bias-audit study:issue-31 [--quick] [--runs N] [--resamples N] [--first-seed N]
//                                                  [--scenario NAME]… [--format text|markdown] [--list]
//
// --first-seed N runs seeds N, N + 1, … instead of 1, 2, … (another sample of stores, to see a row is not its
// seeds' luck).
//
// One process (the study is small); the same arguments print the same table.
import { parseArgs } from 'node:util';
import { formatStudyTable } from '../src/study/format-study-table.js';
import { ISSUE_31_SCENARIOS, runIssue31Scenario } from '../src/study/issue-31-study.js';

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    runs: { type: 'string' },
    resamples: { type: 'string' },
    'first-seed': { type: 'string' },
    scenario: { type: 'string', multiple: true },
    format: { type: 'string', default: 'text' },
    list: { type: 'boolean', default: false },
    help: { type: 'boolean', default: false },
  },
});
if (values.help) {
  console.log(
    'Usage: study:issue-31 [--quick] [--runs N] [--resamples N] [--first-seed N] [--scenario NAME]… [--format text|markdown] [--list]',
  );
  process.exit(0);
}
if (values.list) {
  for (const s of ISSUE_31_SCENARIOS) console.log(`${s.name}\t${s.sessions} sessions\t${s.runs} runs`);
  process.exit(0);
}
for (const name of ['runs', 'resamples', 'first-seed'] as const) {
  const text = values[name];
  if (text !== undefined && !/^[1-9]\d*$/.test(text)) {
    console.error(`--${name} expects a whole number of at least 1, got "${text}".`);
    process.exit(2);
  }
}
if (values.format !== 'text' && values.format !== 'markdown') {
  console.error(`--format is text or markdown, got "${values.format}".`);
  process.exit(2);
}
const chosen =
  values.scenario === undefined
    ? ISSUE_31_SCENARIOS
    : ISSUE_31_SCENARIOS.filter((s) => values.scenario!.includes(s.name));
if (chosen.length === 0) {
  console.error(`No scenario named ${values.scenario!.join(', ')}; --list shows them.`);
  process.exit(2);
}
const rows = [];
for (const scenario of chosen) {
  const runs =
    values.runs === undefined
      ? values.quick
        ? Math.max(20, Math.round(scenario.runs / 5))
        : scenario.runs
      : Number(values.runs);
  const started = performance.now();
  rows.push(
    ...runIssue31Scenario(scenario, {
      runs,
      ...(values.resamples === undefined ? {} : { resamples: Number(values.resamples) }),
      ...(values['first-seed'] === undefined ? {} : { firstSeed: Number(values['first-seed']) }),
    }),
  );
  console.error(`${scenario.name}: ${runs} stores in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}
console.log(formatStudyTable(rows, values.format === 'markdown' ? 'markdown' : 'text'));
