import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../run-cli.js';
import { captureIo } from '../testing/capture-io.js';
import { writePlantedStore } from '../testing/write-bias-records.js';

// Issue 30 item 11, for the two commands left: `council store` and `council personalities` without an action do what
// `council history` alone does (list what there is) instead of "missing required args". Through the CLI.

async function council(argv: string[], home: string) {
  const c = captureIo();
  const code = await runCli(argv, { version: '1.0.0', io: c.io, env: { LLM_COUNCIL_HOME: home }, cwd: home });
  return { code, out: c.out(), err: c.err() };
}

describe('commands without an action list what there is', () => {
  it('council store alone is council store stats (text and --json)', async () => {
    const home = mkdtempSync(join(tmpdir(), 'council-bare-store-'));
    // Three sessions of 4 reviewers × 4 candidates: 48 records.
    await writePlantedStore(join(home, 'bias_metrics.jsonl'), { sessions: 3 });
    const bare = await council(['store'], home);
    expect(bare.code, bare.err).toBe(0);
    expect(bare.out).toMatch(/│ records\s+│ 48\s+│/);
    expect(bare.out).toMatch(/│ sessions\s+│ 3\s+│/);
    expect(bare).toEqual(await council(['store', 'stats'], home));
    const json = await council(['store', '--json'], home);
    expect(JSON.parse(json.out)).toMatchObject({ records: 48, sessions: 3 });
    // An option of another action still says where it belongs.
    const wrong = await council(['store', '--format', 'parquet'], home);
    expect(wrong.code).toBe(2);
    expect(wrong.err).toBe('council: --format is an option of council store export, not of store stats.\n');
  });

  it('council personalities alone is council personalities list', async () => {
    const home = mkdtempSync(join(tmpdir(), 'council-bare-personalities-'));
    mkdirSync(join(home, 'personalities'));
    for (const id of ['careful', 'bold'])
      writeFileSync(
        join(home, 'personalities', `${id}.yaml`),
        `id: ${id}\nname: The ${id} one\nmodel: simulated:ada\nsystem_prompt: Be ${id}.\n`,
      );
    const bare = await council(['personalities'], home);
    expect(bare.code, bare.err).toBe(0);
    expect(bare.out).toContain('careful');
    expect(bare.out).toContain('bold');
    expect(bare).toEqual(await council(['personalities', 'list'], home));
    expect(JSON.parse((await council(['personalities', '--json'], home)).out)).toEqual(
      JSON.parse((await council(['personalities', 'list', '--json'], home)).out),
    );
  });

  it('the helps name the default action', async () => {
    const home = mkdtempSync(join(tmpdir(), 'council-bare-help-'));
    expect((await council(['store', '--help'], home)).out).toContain('$ council store [action]');
    expect((await council(['personalities', '--help'], home)).out).toContain('$ council personalities [action]');
  });
});
