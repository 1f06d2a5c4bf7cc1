// Issue 3's three targets (benchmarks print them; nothing here asserts a time):
//  - Borda over 100,000 sessions of 5 candidates × 5 reviewers, then aggregateLeaderboards: ≤ 1 s in all;
//  - bradleyTerry on 20 candidates and 100,000 pairwise outcomes with 200 bootstrap replicates: ≤ 2 s;
//  - minified, gzipped size of an app that imports only calculateBordaScores: ≤ 3 KB.
// Run after `pnpm --filter @council/scoring build`: `pnpm exec tsx bench/run.ts scoring`.
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { defineBenchSuite } from '@council/bench';
import { aggregateLeaderboards, bradleyTerry, calculateBordaScores, createRng } from '../dist/index.js';
import type { Ballot, LeaderboardSession } from '../dist/index.js';

const distIndex = fileURLToPath(new URL('../dist/index.js', import.meta.url));
const rng = createRng('scoring-bench');

function shuffled<T>(items: readonly T[]): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = rng.nextInt(i + 1);
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy;
}

// 100,000 sessions: five members, each reviewing all five answers (its own entry is excluded by default).
const members = ['gpt', 'claude', 'gemini', 'llama', 'mistral'];
let sessionBallots: Ballot[][] = [];

// 100,000 pairwise outcomes among 20 candidates, from true ratings 0, 20, …, 380 Elo (Arena-style battles).
const models = Array.from({ length: 20 }, (_, i) => `model-${String(i).padStart(2, '0')}`);
let battles: Ballot[] = [];

function bordaThenAggregate(): number {
  const sessions: LeaderboardSession[] = new Array<LeaderboardSession>(sessionBallots.length);
  for (let s = 0; s < sessionBallots.length; s++) {
    sessions[s] = { id: `s${s}`, leaderboard: calculateBordaScores(sessionBallots[s]!, { candidates: members }) };
  }
  return aggregateLeaderboards(sessions, { seed: 1 }).length;
}

async function bundleSizeKb(): Promise<number> {
  const result = await build({
    stdin: {
      contents: `import { calculateBordaScores } from ${JSON.stringify(distIndex)};\nconsole.log(calculateBordaScores([{ reviewer: 'a', ranking: ['b', 'c'] }], { candidates: ['a', 'b', 'c'] }));\n`,
      loader: 'js',
      resolveDir: fileURLToPath(new URL('.', import.meta.url)),
    },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    write: false,
    logLevel: 'silent',
  });
  return gzipSync(result.outputFiles[0]!.contents, { level: 9 }).length / 1024;
}

export const suite = defineBenchSuite({
  name: 'scoring',
  setup: () => {
    sessionBallots = Array.from({ length: 100_000 }, () =>
      members.map((reviewer) => ({ reviewer, ranking: shuffled(members) })),
    );
    battles = Array.from({ length: 100_000 }, () => {
      const i = rng.nextInt(20);
      const j = (i + 1 + rng.nextInt(19)) % 20;
      const iWins = rng.next() < 1 / (1 + 10 ** ((20 * j - 20 * i) / 400));
      return { reviewer: 'judge', ranking: iWins ? [models[i]!, models[j]!] : [models[j]!, models[i]!] };
    });
  },
  cases: [
    {
      name: 'Borda 100k sessions (5×5) + aggregateLeaderboards',
      budgetMs: 1000,
      iterations: 5,
      fn: bordaThenAggregate,
    },
    {
      name: 'bradleyTerry 20 cand × 100k outcomes × 200 bootstrap',
      budgetMs: 2000,
      iterations: 5,
      fn: () => bradleyTerry(battles, { candidates: models, bootstrap: 200, seed: 1 }).length,
    },
  ],
  values: async () => {
    // On a shared machine the wall-clock medians above include waiting for a core; CPU time does not.
    const cpu = (fn: () => unknown): number => {
      const before = process.cpuUsage();
      fn();
      return process.cpuUsage(before).user / 1000;
    };
    return [
      {
        name: 'Borda + aggregateLeaderboards, CPU time of one run',
        value: cpu(bordaThenAggregate),
        unit: 'ms',
        budget: 1000,
      },
      {
        name: 'bradleyTerry, CPU time of one run',
        value: cpu(() => bradleyTerry(battles, { candidates: models, bootstrap: 200, seed: 1 })),
        unit: 'ms',
        budget: 2000,
      },
      {
        name: 'app importing only calculateBordaScores (min+gzip)',
        value: await bundleSizeKb(),
        unit: 'KB',
        budget: 3,
      },
    ];
  },
});
