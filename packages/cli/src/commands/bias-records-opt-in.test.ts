import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../run-cli.js';
import { captureIo } from '../testing/capture-io.js';

const SIM = 'simulated:ada,simulated:basil,simulated:cleo';

async function council(argv: string[], env: Record<string, string>) {
  const c = captureIo();
  const code = await runCli(argv, { version: '1.0.0', io: c.io, env, cwd: tmpdir() });
  return { code, out: c.out(), err: c.err() };
}

/** The lines of a JSONL file, or none when it does not exist. */
function lines(path: string): string[] {
  return existsSync(path) ? readFileSync(path, 'utf8').trim().split('\n').filter(Boolean) : [];
}

describe('bias records: opting in is one line of config.yaml (issue 30 item 2)', () => {
  it('`config init --bias-records` turns them on: ask then saves bias records with no variable set, and config show says where from', async () => {
    const home = mkdtempSync(join(tmpdir(), 'council-opt-in-'));
    const env = { LLM_COUNCIL_HOME: home };
    const init = await council(['config', 'init', '--bias-records'], env);
    expect(init.code).toBe(0);
    expect(init.out).toContain('bias records on (bias_persistence: true)');
    const text = readFileSync(join(home, 'config.yaml'), 'utf8');
    // The one uncommented line of the file is the opt-in.
    expect(text.split('\n').filter((line) => line.trim() !== '' && !line.startsWith('#'))).toEqual([
      'bias_persistence: true             # bias records on (ADR-018)',
    ]);
    const shown = await council(['config', 'show'], env);
    expect(shown.out).toMatch(/bias persistence +on \(config\.yaml bias_persistence\)/);
    const json = JSON.parse((await council(['config', 'show', '--json'], env)).out) as Record<string, unknown>;
    expect(json).toMatchObject({ biasPersistence: true, biasPersistenceSource: 'config.yaml bias_persistence' });

    const ask = await council(['ask', 'Which queue?', '--models', SIM], env);
    expect(ask.code).toBe(0);
    // Three members each review the three answers: 3 × 3 = 9 records (self-review included by default).
    expect(ask.err).toContain('Saved history, 9 bias records, 3 contribution records at consent level 1 (local only).');
    expect(lines(join(home, 'bias_metrics.jsonl'))).toHaveLength(9);
    // The question never enters them.
    expect(readFileSync(join(home, 'bias_metrics.jsonl'), 'utf8')).not.toContain('Which queue?');
  }, 30_000);

  it('LLM_COUNCIL_BIAS_PERSISTENCE, when set, wins over config.yaml both ways', async () => {
    const home = mkdtempSync(join(tmpdir(), 'council-opt-in-env-'));
    writeFileSync(join(home, 'config.yaml'), 'bias_persistence: true\n');
    const off = await council(['ask', 'Which queue?', '--models', SIM], {
      LLM_COUNCIL_HOME: home,
      LLM_COUNCIL_BIAS_PERSISTENCE: 'false',
    });
    expect(off.code).toBe(0);
    expect(lines(join(home, 'bias_metrics.jsonl'))).toHaveLength(0);
    expect(off.err).toContain('LLM_COUNCIL_BIAS_PERSISTENCE turns them off: unset it (or set it to true).');

    const other = mkdtempSync(join(tmpdir(), 'council-opt-in-env-'));
    writeFileSync(join(other, 'config.yaml'), 'bias_persistence: false\n');
    const on = await council(['ask', 'Which queue?', '--models', SIM], {
      LLM_COUNCIL_HOME: other,
      LLM_COUNCIL_BIAS_PERSISTENCE: 'true',
    });
    expect(on.code).toBe(0);
    expect(lines(join(other, 'bias_metrics.jsonl'))).toHaveLength(9);
  }, 30_000);

  it('a session without them names the one step: the line to add to this home’s config.yaml', async () => {
    const home = mkdtempSync(join(tmpdir(), 'council-opt-in-off-'));
    const ask = await council(['ask', 'Which queue?', '--models', SIM], { LLM_COUNCIL_HOME: home });
    expect(ask.code).toBe(0);
    expect(ask.err).toContain(
      `note: bias records and contribution records are off: to collect them for \`council bias-report\` and \`council contributions\`, add \`bias_persistence: true\` to ${join(home, 'config.yaml')} (\`council config init --bias-records\` writes one) or set LLM_COUNCIL_BIAS_PERSISTENCE=true.\n`,
    );
    expect(existsSync(join(home, 'bias_metrics.jsonl'))).toBe(false);
    const shown = await council(['config', 'show'], { LLM_COUNCIL_HOME: home });
    expect(shown.out).toMatch(
      /bias persistence +off \(default\): to collect bias records, add `bias_persistence: true` to /,
    );
  }, 30_000);

  it('store stats, contributions and bias-report, finding none, say whether records are on or the step that turns them on', async () => {
    const off = mkdtempSync(join(tmpdir(), 'council-opt-in-none-'));
    const step = `add \`bias_persistence: true\` to ${join(off, 'config.yaml')} (\`council config init --bias-records\` writes one) or set LLM_COUNCIL_BIAS_PERSISTENCE=true`;
    expect((await council(['store', 'stats'], { LLM_COUNCIL_HOME: off })).out).toContain(
      `Bias records are off until you opt in: ${step}`,
    );
    expect((await council(['contributions'], { LLM_COUNCIL_HOME: off })).out).toContain(
      `Bias records are off until you opt in: ${step}`,
    );
    const report = await council(['bias-report'], { LLM_COUNCIL_HOME: off });
    expect(report.out + report.err).toContain(
      "They are saved once you opt in: `bias_persistence: true` in your Council home's config.yaml (`council config init --bias-records` writes it) or LLM_COUNCIL_BIAS_PERSISTENCE=true",
    );
    const on = mkdtempSync(join(tmpdir(), 'council-opt-in-none-'));
    writeFileSync(join(on, 'config.yaml'), 'bias_persistence: true\n');
    for (const argv of [['store', 'stats'], ['contributions']])
      expect((await council(argv, { LLM_COUNCIL_HOME: on })).out).toContain(
        'Bias records are on: each session you run saves them (or try `council demo`).',
      );
  });

  it('--bias-records belongs to init alone', async () => {
    const home = mkdtempSync(join(tmpdir(), 'council-opt-in-usage-'));
    expect(await council(['config', 'show', '--bias-records'], { LLM_COUNCIL_HOME: home })).toEqual({
      code: 2,
      out: '',
      err: 'council: --bias-records is an option of council config init (it writes config.yaml with bias records on).\n',
    });
  });
});
