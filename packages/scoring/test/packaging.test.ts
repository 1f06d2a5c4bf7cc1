// The published artefact, as a user gets it: `pnpm pack`, then plain `npm install` of the tarball into an
// empty project outside the workspace, then `node` on an ESM script, a CommonJS `require`, and every
// JavaScript example of the README (whose `// output` comments must match what it prints).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const packageDir = fileURLToPath(new URL('..', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'council-scoring-pack-'));
const consumer = join(work, 'consumer');

// pnpm and npm export npm_config_* variables to child processes; the consumer must see a plain npm.
const cleanEnv = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^(npm_|pnpm_)/i.test(key)));

function run(command: string, args: string[], cwd: string): string {
  return execFileSync(command, args, { cwd, env: cleanEnv, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

beforeAll(() => {
  if (!existsSync(join(packageDir, 'dist', 'index.js')) || !existsSync(join(packageDir, 'dist', 'index.d.ts'))) {
    throw new Error(
      `packages/scoring/dist is missing: run \`pnpm --filter @council/scoring build\` before this test (the root \`pnpm test\` builds first).`,
    );
  }
  run('pnpm', ['pack', '--pack-destination', work], packageDir);
  const tarball = readdirSync(work).find((f) => f.endsWith('.tgz'));
  if (!tarball) throw new Error(`pnpm pack wrote no tarball into ${work}`);
  mkdirSync(consumer);
  writeFileSync(join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', version: '1.0.0', private: true }));
  // The package has no dependencies, so this needs no network.
  run('npm', ['install', '--offline', '--no-audit', '--no-fund', '--loglevel=error', join(work, tarball)], consumer);
}, 120_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

// Hand-worked (see the README): self-votes dropped, each ballot ranks two candidates, first 1, second 0.
// claude: 1 and 1 → 1; gpt: 1 and 0 → 0.5; gemini: 0 and 0 → 0. Everyone ranked by both ballots that could → high.
const expected = [
  ['claude', 1, 1, 'high'],
  ['gpt', 0.5, 2, 'high'],
  ['gemini', 0, 3, 'high'],
];
const body = `
const ballots = [
  { reviewer: 'gpt', ranking: ['claude', 'gpt', 'gemini'] },
  { reviewer: 'claude', ranking: ['gpt', 'gemini', 'claude'] },
  { reviewer: 'gemini', ranking: ['claude', 'gpt'] },
];
const board = calculateBordaScores(ballots, { candidates: ['gpt', 'claude', 'gemini'] });
console.log(JSON.stringify(board.map((e) => [e.candidate, e.bordaScore, e.finalRank, e.confidence])));
`;

// Each test runs node or npm in a child process: seconds each, more under load, past vitest's 5 s default.
describe('the packed tarball installed with npm outside the workspace', { timeout: 120_000 }, () => {
  it('contains dist, package.json and the README (pnpm may add the workspace LICENSE), and no dependencies', () => {
    const installed = join(consumer, 'node_modules', '@council', 'scoring');
    const manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as Record<string, unknown>;
    expect(manifest.dependencies).toBeUndefined();
    const files = readdirSync(installed).sort();
    expect(files.filter((f) => f !== 'LICENSE')).toEqual(['README.md', 'dist', 'package.json']);
    expect(readdirSync(join(installed, 'dist')).sort()).toEqual(['index.d.ts', 'index.js', 'index.js.map']);
  });

  it('imports and runs from an ESM script', () => {
    writeFileSync(join(consumer, 'esm.mjs'), `import { calculateBordaScores } from '@council/scoring';\n${body}`);
    expect(JSON.parse(run(process.execPath, ['esm.mjs'], consumer))).toEqual(expected);
  });

  it('loads with a CommonJS require (Node 20.19+ require(esm))', () => {
    writeFileSync(
      join(consumer, 'cjs.cjs'),
      `const { calculateBordaScores, ScoringError } = require('@council/scoring');\nif (typeof ScoringError.isInstance !== 'function') throw new Error('no ScoringError');\n${body}`,
    );
    expect(JSON.parse(run(process.execPath, ['cjs.cjs'], consumer))).toEqual(expected);
  });

  it('runs every JavaScript example of the README and prints what its comments say', () => {
    const readme = readFileSync(join(packageDir, 'README.md'), 'utf8');
    const blocks = [...readme.matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1]!);
    expect(blocks.length).toBeGreaterThanOrEqual(8);
    blocks.forEach((code, i) => {
      // Expected output: the full-line comments that directly follow a line calling console.log.
      const lines = code.split('\n');
      const wanted: string[] = [];
      lines.forEach((line, k) => {
        if (!line.includes('console.log(')) return;
        for (let j = k + 1; j < lines.length && /^\s*\/\/ /.test(lines[j]!); j++)
          wanted.push(lines[j]!.trim().slice(3));
      });
      expect(wanted.length, `README example ${i + 1} documents its output`).toBeGreaterThan(0);
      const file = `readme-${i + 1}.mjs`;
      writeFileSync(join(consumer, file), code);
      const printed = run(process.execPath, [file], consumer).trimEnd().split('\n');
      expect(printed, `README example ${i + 1}:\n${code}`).toEqual(wanted);
    });
  });
});
