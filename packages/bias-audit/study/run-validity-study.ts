// The validity study of issue 13 in one command: every scenario of ISSUE_13_SCENARIOS through
// aggregateBiasAudit, seeded and deterministic,
// printed as a table of rates with Wilson 95% intervals, targets and verdicts. `--issue 29` runs issue 29's
// messy councils (ISSUE_29_SCENARIOS) instead.
//
//   pnpm --filter @council/bias-audit study [--issue 13|29] [--quick] [--runs N] [--scenario NAME]… [--jobs N]
//                                           [--resamples N] [--format text|markdown] [--list] [--help]
//
// Runs are split into chunks and spread over `--jobs` worker processes (default: 2, or fewer cores);
// a chunk's counts are plain sums, so the table is the same for any number of jobs.
import { fork } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { aggregateEstimator } from '../src/study/aggregate-estimator.js';
import { formatStudyTable } from '../src/study/format-study-table.js';
import { emptyTally, mergeTallies, tallyScenario } from '../src/study/scenario-tally.js';
import type { ScenarioTally } from '../src/study/scenario-tally.js';
import type { StudyEstimator } from '../src/study/study-estimator.js';
import type { StudyScenario } from '../src/study/study-scenario.js';
import { ISSUE_29_SCENARIOS } from '../src/study/issue-29-scenarios.js';
import { ISSUE_13_SCENARIOS } from '../src/study/study-scenarios.js';
import { summarizeTally } from '../src/study/summarize-tally.js';

/** The estimator under study. */
const estimator: StudyEstimator = aggregateEstimator;

interface Chunk {
  id: number;
  scenario: string;
  firstRun: number;
  runs: number;
  resamples: number | undefined;
}
interface ChunkResult {
  id: number;
  tally: ScenarioTally;
  ms: number;
}

/** The scenario lists by issue; names are unique across them, so a worker finds a chunk's scenario by name alone. */
const STUDIES: Record<string, { scenarios: readonly StudyScenario[]; quickRuns: number }> = {
  '13': { scenarios: ISSUE_13_SCENARIOS, quickRuns: 25 },
  '29': { scenarios: ISSUE_29_SCENARIOS, quickRuns: 200 },
};
const byName = new Map(Object.values(STUDIES).flatMap((study) => study.scenarios.map((s) => [s.name, s] as const)));

function runChunk(chunk: Chunk): ChunkResult {
  const started = performance.now();
  const tally = tallyScenario({
    scenario: byName.get(chunk.scenario)!,
    estimator,
    firstRun: chunk.firstRun,
    runs: chunk.runs,
    resamples: chunk.resamples,
  });
  return { id: chunk.id, tally, ms: performance.now() - started };
}

if (process.argv.includes('--worker')) {
  process.on('message', (chunk: Chunk) => process.send!(runChunk(chunk)));
} else {
  await main();
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      issue: { type: 'string', default: '13' },
      runs: { type: 'string' },
      scenario: { type: 'string', multiple: true },
      quick: { type: 'boolean', default: false },
      jobs: { type: 'string' },
      resamples: { type: 'string' },
      format: { type: 'string', default: 'text' },
      list: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    console.log(
      [
        'Usage: pnpm --filter @council/bias-audit study [options]',
        "  --issue N           the issue's scenarios: 13 (default, the tidy council) or 29 (messy councils)",
        "  --runs N            runs of every scenario (default: each scenario's own, 200–2,000; --quick: 25, 200 with --issue 29)",
        '  --scenario NAME     only this scenario (repeat, or comma-separate, for several); --list shows them',
        '  --quick             a smoke run: 25 runs each (issue 29: 200 runs each, its baseline)',
        "  --resamples N       permutations per position test, 0 for the Wald test (default: the estimator's own)",
        '  --jobs N            worker processes (default: min(2, cores))',
        '  --format F          text (default) or markdown',
        '  --list              the scenarios, their runs and sessions',
      ].join('\n'),
    );
    return;
  }
  const study = STUDIES[values.issue];
  if (study === undefined)
    throw new Error(`--issue must be one of ${Object.keys(STUDIES).join(', ')}, got ${values.issue}.`);
  if (values.list) {
    for (const s of study.scenarios)
      console.log(
        `${s.name.padEnd(30)} ${String(s.runs).padStart(5)} runs × ${String(s.sessions).padStart(3)} sessions  ${s.description}`,
      );
    return;
  }
  const count = (name: string, text: string | undefined, min: number): number | undefined => {
    if (text === undefined) return undefined;
    const n = Number(text);
    if (!Number.isInteger(n) || n < min)
      throw new Error(`--${name} must be an integer of at least ${min}, got ${text}.`);
    return n;
  };
  const runsOverride = count('runs', values.runs, 1) ?? (values.quick ? study.quickRuns : undefined);
  const resamples = count('resamples', values.resamples, 0);
  const jobs = count('jobs', values.jobs, 1) ?? Math.min(2, availableParallelism());
  if (values.format !== 'text' && values.format !== 'markdown')
    throw new Error(`--format must be text or markdown, got ${values.format}.`);
  const format = values.format;
  const wanted = (values.scenario ?? []).flatMap((s) => s.split(',')).filter((s) => s !== '');
  for (const name of wanted)
    if (!study.scenarios.some((s) => s.name === name))
      throw new Error(`No scenario ${name} in issue ${values.issue}'s study; --list shows them.`);
  const scenarios: StudyScenario[] = study.scenarios
    .filter((s) => wanted.length === 0 || wanted.includes(s.name))
    .map((s) => (runsOverride === undefined ? s : { ...s, runs: runsOverride }));

  // Chunks of about 2,000 sessions of work, the largest stores first so the workers finish together.
  const chunks: Chunk[] = [];
  for (const s of [...scenarios].sort((a, b) => b.sessions - a.sessions)) {
    const size = Math.max(5, Math.min(100, Math.ceil(2000 / s.sessions)));
    for (let first = 0; first < s.runs; first += size)
      chunks.push({
        id: chunks.length,
        scenario: s.name,
        firstRun: first,
        runs: Math.min(size, s.runs - first),
        resamples,
      });
  }
  const tallies = new Map<string, ScenarioTally>(scenarios.map((s) => [s.name, emptyTally()]));
  const cpuMs = new Map<string, number>(scenarios.map((s) => [s.name, 0]));
  let done = 0;
  const record = (result: ChunkResult): void => {
    const chunk = chunks[result.id]!;
    tallies.set(chunk.scenario, mergeTallies(tallies.get(chunk.scenario)!, result.tally));
    cpuMs.set(chunk.scenario, cpuMs.get(chunk.scenario)! + result.ms);
    done++;
    if (process.stderr.isTTY) process.stderr.write(`\r${done}/${chunks.length} chunks`);
  };
  const started = performance.now();
  if (jobs === 1) {
    for (const chunk of chunks) record(runChunk(chunk));
  } else {
    const queue = [...chunks];
    const workers: ChildProcess[] = [];
    await Promise.all(
      Array.from({ length: Math.min(jobs, chunks.length) }, () => {
        const worker = fork(fileURLToPath(import.meta.url), ['--worker'], {
          stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
        });
        workers.push(worker);
        return new Promise<void>((resolve, reject) => {
          const next = (): void => {
            const chunk = queue.shift();
            if (chunk === undefined) {
              worker.disconnect();
              resolve();
            } else worker.send(chunk);
          };
          worker.on('message', (result: ChunkResult) => {
            record(result);
            next();
          });
          worker.on('exit', (code) => {
            if (code !== 0 && code !== null) reject(new Error(`a study worker exited with code ${code}`));
          });
          worker.on('error', reject);
          next();
        });
      }),
    );
  }
  const wallSeconds = (performance.now() - started) / 1000;
  if (process.stderr.isTTY) process.stderr.write('\r');

  const rows = scenarios.flatMap((s) => summarizeTally(s, tallies.get(s.name)!));
  console.log(formatStudyTable(rows, format));
  console.log();
  const totalRuns = scenarios.reduce((s, x) => s + x.runs, 0);
  const describe = (n: number | undefined): string => (n === undefined ? "the estimator's default" : String(n));
  console.log(
    `${estimator.name}, issue ${values.issue}'s study: ${scenarios.length} scenario(s), ${totalRuns} runs in ${wallSeconds.toFixed(1)} s wall on ${Math.min(jobs, chunks.length)} process(es); ` +
      `resamples: ${describe(resamples)}.`,
  );
  console.log(
    `CPU seconds per scenario: ${scenarios.map((s) => `${s.name} ${(cpuMs.get(s.name)! / 1000).toFixed(1)}`).join(', ')}.`,
  );
  console.log("Verdict: pass/FAIL by the rate; '?' when the 95% interval reaches across the target's edge.");
}
