import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';

const bundle = fileURLToPath(new URL('../dist/council.js', import.meta.url));
// Node's fetch: loading it (Request, Response, fetch itself, or ky, whose module load builds a Request) loads undici.
const undici = 'NativeModule internal/deps/undici/undici';
let dir = '';

/** Records, as the process exits, the Node built-in modules it loaded (`process.moduleLoadList`). */
const recordLoads = [
  "import { writeFileSync } from 'node:fs';",
  'process.on("exit", () => writeFileSync(process.env.COUNCIL_TEST_LOADS, JSON.stringify(process.moduleLoadList)));',
].join(' ');

/** The built-in modules `node …args` loaded; the run must succeed. */
function builtinsLoaded(args: string[]): string[] {
  const file = join(dir, 'loaded.json');
  writeFileSync(file, '[]');
  const result = spawnSync(
    process.execPath,
    ['--import', `data:text/javascript,${encodeURIComponent(recordLoads)}`, ...args],
    {
      encoding: 'utf8',
      env: { PATH: process.env['PATH'] ?? '', LLM_COUNCIL_HOME: join(dir, 'home'), COUNCIL_TEST_LOADS: file },
      timeout: 60_000,
    },
  );
  expect(result.stderr).toBe('');
  expect(result.status).toBe(0);
  return JSON.parse(readFileSync(file, 'utf8')) as string[];
}

/** One session's records: two reviewers scoring and ranking two answers. */
function writeStore(path: string): void {
  const rows: [reviewer: string, model: string, position: number, score: number][] = [
    ['a/x', 'a/y', 1, 7],
    ['a/x', 'a/x', 2, 6],
    ['a/y', 'a/x', 1, 8],
  ];
  const records = rows.map(([reviewer, model, position, score]) => ({
    schema_version: '1.1.0',
    session_id: '00000000-0000-4000-8000-000000000001',
    timestamp: '2026-01-01T00:00:00.000Z',
    consent_level: 1,
    query_metadata: { category: 'coding', token_count_bucket: '100-500', language: 'en' },
    reviewer_id: reviewer,
    model_id: model,
    position,
    response_length_chars: 1000 + 100 * position,
    score_value: score,
    score_scale: '1-10',
    council_config_version: '1.0.0',
    query_hash: null,
    // Ranks are 0-based places in the reviewer's ranking: a/x ranks its two answers 0 and 1.
    rank_position: position - 1,
  }));
  writeFileSync(path, records.map((one) => `${JSON.stringify(one)}\n`).join(''));
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'council-cold-path-'));
  writeStore(join(dir, 'store.jsonl'));
});

describe('what a cold run of the bundled executable loads', () => {
  it('the check sees undici when a process builds a Request', () => {
    expect(builtinsLoaded(['-e', 'new Request("http://127.0.0.1/")'])).toContain(undici);
  }, 60_000);

  it('--version does not load undici', () => {
    expect(builtinsLoaded([bundle, '--version'])).not.toContain(undici);
  }, 60_000);

  it('bias-report over a JSONL store does not load undici (nor the providers and ky, whose load would)', () => {
    const args = [
      'bias-report',
      '--input',
      join(dir, 'store.jsonl'),
      '--format',
      'json',
      '--now',
      '2026-01-02T00:00:00Z',
    ];
    const loaded = builtinsLoaded([bundle, ...args]);
    expect(loaded).toContain('NativeModule fs/promises');
    expect(loaded).not.toContain(undici);
  }, 60_000);
});
