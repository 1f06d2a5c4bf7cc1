// `pnpm smoke:real`: whole councils on a real model, measured. It installs the model if needed, starts the test
// fixture, and runs each question of smoke/questions.json as a council of four members and a chairman (all the same
// small model under different ids) through the built `council` executable with --json — with structured reviews on
// (the default) and off (`structured_reviews: false` in the home's config.yaml). It prints, per member, what was
// answered and how the reviews were read, the median time per call and the model's speed; overall, the share of
// reviews read directly, after repair or not at all in each mode, and one council's wall time split into the
// model's prefill, generation and the rest. Exits 1 when a council fails to run (a partial council, exit 3, ran).
//
//   pnpm smoke:real [--questions N] [--structured on|off|both] [--json FILE] [--model smollm2|gemma]
//                   [--provider llamacpp] [--timeout 10m] [--threads 1] [--keep-homes]
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ensureRealModel } from '../../../scripts/ensure-real-model.mjs';
import { startRealModelServer } from './real-model-server.js';
import type { RealModelRequestStats } from './real-model-server.js';
import { repoRoot, requireBuiltCli } from './real-model-test-setup.js';
import { runCouncilCli } from './run-council-cli.js';
import type { CouncilSessionJson } from './run-council-cli.js';

type Mode = 'on' | 'off';

interface CouncilResult {
  mode: Mode;
  question: number;
  exitCode: number | null;
  wallMs: number;
  session: CouncilSessionJson | undefined;
  /** The fixture's stats of this council's requests (councils run one after another). */
  requests: RealModelRequestStats[];
  stderrTail: string;
}

const { values } = parseArgs({
  options: {
    questions: { type: 'string' },
    structured: { type: 'string', default: 'both' },
    json: { type: 'string' },
    model: { type: 'string', default: 'smollm2' },
    provider: { type: 'string', default: 'llamacpp' },
    timeout: { type: 'string', default: '10m' },
    threads: { type: 'string', default: '1' },
    'keep-homes': { type: 'boolean', default: false },
  },
});

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

const modes: Mode[] =
  values.structured === 'both'
    ? ['on', 'off']
    : values.structured === 'on' || values.structured === 'off'
      ? [values.structured]
      : fail('--structured must be on, off or both');
if (values.model !== 'smollm2' && values.model !== 'gemma') fail('--model must be smollm2 or gemma');
const baseURLEnv = {
  llamacpp: 'LLAMACPP_BASE_URL',
  ollama: 'OLLAMA_BASE_URL',
  lmstudio: 'LMSTUDIO_BASE_URL',
  vllm: 'VLLM_BASE_URL',
}[values.provider];
if (!baseURLEnv)
  fail(
    '--provider must be llamacpp, ollama, lmstudio or vllm (an OpenAI-compatible provider with a base-URL variable)',
  );
const allQuestions = JSON.parse(
  readFileSync(join(repoRoot, 'tooling', 'real-model', 'smoke', 'questions.json'), 'utf8'),
) as string[];
const questionCount = values.questions === undefined ? allQuestions.length : Number(values.questions);
if (!Number.isInteger(questionCount) || questionCount < 1 || questionCount > allQuestions.length) {
  fail(`--questions must be an integer from 1 to ${allQuestions.length}`);
}
const questions = allQuestions.slice(0, questionCount);
const memberNames = ['a', 'b', 'c', 'd'].map((suffix) => `${values.model}-${suffix}`);
const chairName = `${values.model}-chair`;

const cliPath = requireBuiltCli();
const modelPath = await ensureRealModel({ model: values.model });
const server = await startRealModelServer({ modelPath, threads: Number(values.threads) });
console.error(
  `Fixture: ${modelPath} at ${server.baseURL}, context ${server.contextSize}, ${values.threads} thread(s).`,
);

const results: CouncilResult[] = [];
try {
  for (const mode of modes) {
    const home = mkdtempSync(join(tmpdir(), `council-smoke-${mode}-`));
    if (mode === 'off') writeFileSync(join(home, 'config.yaml'), 'structured_reviews: false\n');
    for (const [index, question] of questions.entries()) {
      const before = server.stats().length;
      const run = await runCouncilCli({
        cliPath,
        question,
        members: memberNames.map((name) => `${values.provider}:${name}`),
        chairman: `${values.provider}:${chairName}`,
        baseURL: server.baseURL,
        baseURLEnv,
        home,
        callTimeout: values.timeout,
      });
      const result: CouncilResult = {
        mode,
        question: index + 1,
        exitCode: run.exitCode,
        wallMs: run.wallMs,
        session: run.session,
        requests: server.stats().slice(before),
        stderrTail: run.stderr.slice(-2000),
      };
      results.push(result);
      const reads = (run.session?.stage2 ?? []).map((review) => review.readPath ?? '?').join(' ');
      console.error(
        `structured ${mode}, question ${index + 1}/${questions.length}: exit ${String(run.exitCode)} in ${(run.wallMs / 1000).toFixed(1)} s; reviews read: ${reads || '-'}`,
      );
      if (!ranToEnd(result)) console.error(`  council failed to run; its stderr ends:\n${result.stderrTail}`);
    }
    if (values['keep-homes']) console.error(`Home of the structured-${mode} councils kept: ${home}`);
    else rmSync(home, { recursive: true, force: true });
  }
} finally {
  await server.close();
}

/** Ran to the end: complete (0) or partial (3), with the session document printed. */
function ranToEnd(result: CouncilResult): boolean {
  return (result.exitCode === 0 || result.exitCode === 3) && result.session !== undefined;
}

function median(values: readonly number[]): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

const sum = (values: readonly number[]): number => values.reduce((total, value) => total + value, 0);
const seconds = (ms: number | undefined): string => (ms === undefined ? '-' : (ms / 1000).toFixed(1));
const percent = (part: number, whole: number): string => (whole === 0 ? '-' : `${((100 * part) / whole).toFixed(0)}%`);

function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]): string =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

type ReadKind = 'direct' | 'repaired' | 'abstained' | 'unknown';
function readKind(readPath: string | undefined): ReadKind {
  if (readPath === 'structured' || readPath === 'text') return 'direct';
  if (readPath === 'structured-repaired' || readPath === 'text-repaired') return 'repaired';
  if (readPath === 'unread') return 'abstained';
  return 'unknown';
}

function speed(requests: readonly RealModelRequestStats[]): { generated: number; prompt: number } {
  return {
    generated:
      (1000 * sum(requests.map((r) => r.generatedTokens))) / Math.max(1, sum(requests.map((r) => r.generationMs))),
    prompt: (1000 * sum(requests.map((r) => r.promptTokens))) / Math.max(1, sum(requests.map((r) => r.prefillMs))),
  };
}

const report: Record<string, unknown> = { model: values.model, modelPath, questions: questions.length, modes: {} };
for (const mode of modes) {
  const councils = results.filter((r) => r.mode === mode);
  const sessions = councils.flatMap((r) => (r.session ? [r.session] : []));
  const requests = councils.flatMap((r) => r.requests);
  const rows: string[][] = [];
  const members: Record<string, unknown>[] = [];
  for (const name of [...memberNames, chairName]) {
    const id = `${values.provider}:${name}`;
    const answers = sessions.flatMap((s) => s.stage1.filter((a) => a.member === id));
    const reviews = sessions.flatMap((s) => s.stage2.filter((r) => r.reviewer === id));
    const kinds = reviews.map((r) => readKind(r.readPath));
    const syntheses = name === chairName ? sessions.flatMap((s) => (s.synthesis?.text ? [s.synthesis] : [])) : [];
    const own = requests.filter((r) => r.model === name);
    const answerMs = median(answers.flatMap((a) => (a.latencyMs == null ? [] : [a.latencyMs])));
    const reviewMs = median(reviews.flatMap((r) => (r.latencyMs == null ? [] : [r.latencyMs])));
    const synthesisMs = median(syntheses.flatMap((s) => (s.latencyMs == null ? [] : [s.latencyMs])));
    const tokens = speed(own);
    const count = (kind: ReadKind): number => kinds.filter((k) => k === kind).length;
    const row = {
      member: id,
      answered: name === chairName ? undefined : answers.filter((a) => !a.error && a.text?.trim()).length,
      synthesised: name === chairName ? syntheses.length : undefined,
      reviewsDirect: count('direct'),
      reviewsRepaired: count('repaired'),
      reviewsAbstained: count('abstained'),
      reviewsUnknown: count('unknown'),
      medianAnswerMs: answerMs,
      medianReviewMs: reviewMs,
      medianSynthesisMs: synthesisMs,
      generatedTokensPerSecond: own.length ? tokens.generated : undefined,
      promptTokensPerSecond: own.length ? tokens.prompt : undefined,
      calls: own.length,
    };
    members.push(row);
    rows.push([
      id,
      name === chairName
        ? `${syntheses.length}/${sessions.length} synth.`
        : `${String(row.answered)}/${sessions.length}`,
      String(row.reviewsDirect),
      String(row.reviewsRepaired),
      String(row.reviewsAbstained) + (row.reviewsUnknown ? ` (+${row.reviewsUnknown} no readPath)` : ''),
      seconds(name === chairName ? synthesisMs : answerMs),
      seconds(reviewMs),
      own.length ? tokens.generated.toFixed(1) : '-',
      own.length ? tokens.prompt.toFixed(0) : '-',
    ]);
  }
  const allKinds = sessions.flatMap((s) => s.stage2.map((r) => readKind(r.readPath)));
  const share = (kind: ReadKind): number => allKinds.filter((k) => k === kind).length;
  const exits = councils.map((r) => r.exitCode);
  console.log(
    `\n== Structured reviews ${mode}: ${councils.length} councils — ${exits.filter((c) => c === 0).length} complete (exit 0), ${exits.filter((c) => c === 3).length} partial (exit 3), ${councils.filter((r) => !ranToEnd(r)).length} failed to run`,
  );
  console.log(
    table(
      [
        'member',
        'answered',
        'read directly',
        'after repair',
        'abstained',
        'answer/synth s',
        'review s',
        'gen tok/s',
        'prompt tok/s',
      ],
      rows,
    ),
  );
  console.log(
    `Reviews: ${allKinds.length}; read directly ${percent(share('direct'), allKinds.length)}, after repair ${percent(share('repaired'), allKinds.length)}, abstained ${percent(share('abstained'), allKinds.length)}` +
      (share('unknown') ? `, without a readPath ${percent(share('unknown'), allKinds.length)}` : ''),
  );
  const readPaths = new Map<string, number>();
  for (const s of sessions)
    for (const r of s.stage2) readPaths.set(r.readPath ?? '(none)', (readPaths.get(r.readPath ?? '(none)') ?? 0) + 1);
  console.log(`readPath counts: ${[...readPaths].map(([path, n]) => `${path} ${n}`).join(', ') || '-'}`);

  // One council, the one of median wall time: where its time went.
  const ran = councils.filter(ranToEnd).sort((a, b) => a.wallMs - b.wallMs);
  const typical = ran[(ran.length - 1) >> 1];
  let split: Record<string, number> | undefined;
  if (typical) {
    const prefill = sum(typical.requests.map((r) => r.prefillMs));
    const generation = sum(typical.requests.map((r) => r.generationMs));
    const queue = sum(typical.requests.map((r) => r.queueWaitMs));
    split = {
      wallMs: typical.wallMs,
      prefillMs: prefill,
      generationMs: generation,
      fixtureQueueWaitMs: queue,
      otherMs: typical.wallMs - prefill - generation,
    };
    console.log(
      `One council (question ${typical.question}, median wall time): ${seconds(typical.wallMs)} s wall, ${typical.requests.length} model calls — ` +
        `prefill ${seconds(prefill)} s (${percent(prefill, typical.wallMs)}), generation ${seconds(generation)} s (${percent(generation, typical.wallMs)}), ` +
        `the rest ${seconds(typical.wallMs - prefill - generation)} s (process start, HTTP, Council's own work); ` +
        `queue wait at the fixture ${seconds(queue)} s in all (waits overlap other calls' generation). ` +
        `Prompt tokens ${sum(typical.requests.map((r) => r.promptTokens))}, generated ${sum(typical.requests.map((r) => r.generatedTokens))}.`,
    );
  }
  (report.modes as Record<string, unknown>)[mode] = {
    councils: councils.map((r) => ({
      question: r.question,
      exitCode: r.exitCode,
      wallMs: r.wallMs,
      readPaths: r.session?.stage2.map((x) => x.readPath ?? null) ?? null,
    })),
    members,
    reviews: {
      total: allKinds.length,
      direct: share('direct'),
      repaired: share('repaired'),
      abstained: share('abstained'),
      unknown: share('unknown'),
    },
    readPaths: Object.fromEntries(readPaths),
    typicalCouncil: split,
    requests,
  };
}

if (values.json) {
  writeFileSync(values.json, `${JSON.stringify(report, null, 2)}\n`);
  console.error(`Report written to ${values.json}`);
}
const failed = results.filter((r) => !ranToEnd(r));
if (failed.length > 0) {
  console.error(
    `${failed.length} of ${results.length} councils failed to run (exit code other than 0 or 3, or no session document).`,
  );
  process.exit(1);
}
