import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// Issue 30's first hour, through the bundled executable as a user's shell runs it (after `pnpm build`).
const bundle = fileURLToPath(new URL('../dist/council.js', import.meta.url));
const SIM = 'simulated:ada,simulated:basil,simulated:cleo';
const BASE_PATH = process.env['PATH'] ?? '';

/** A PATH directory holding `council`, linked to the bundle as `npm install --global ./apps/cli` links it. */
function binWithCouncil(): string {
  const bin = mkdtempSync(join(tmpdir(), 'council-bin-'));
  symlinkSync(bundle, join(bin, 'council'));
  return bin;
}

/** Runs a shell command line as printed, in a directory with no relation to the repository. */
function shell(line: string, env: Record<string, string>) {
  const cwd = mkdtempSync(join(tmpdir(), 'council-elsewhere-'));
  const result = spawnSync('sh', ['-c', line], {
    encoding: 'utf8',
    cwd,
    env: { PATH: BASE_PATH, ...env },
    timeout: 60_000,
  });
  return { code: result.status, out: result.stdout, err: result.stderr };
}

function council(args: string[], env: Record<string, string>) {
  const result = spawnSync(process.execPath, [bundle, ...args], {
    encoding: 'utf8',
    env: { PATH: BASE_PATH, ...env },
    cwd: tmpdir(),
    timeout: 60_000,
  });
  return { code: result.status, out: result.stdout, err: result.stderr };
}

describe('the first hour through the bundled council (issue 30)', () => {
  it('item 1: the demo prints commands that work as printed, on the PATH or not', () => {
    // Not on the PATH: the hints run the bundle by its path, and name the step that puts council on the PATH.
    const off = council(['demo', '--sessions', '10'], {});
    expect(off.code).toBe(0);
    const explore = /^Explore further: (.+)$/m.exec(off.out)?.[1];
    expect(explore).toMatch(/^node \S+council\.js bias-report --home \S+ --verbose$/);
    expect(off.out).toMatch(
      /^Put council on your PATH \(once; it links to this build\): npm install --global \S+apps\/cli$/m,
    );
    const ran = shell(explore!, {});
    expect(ran.code, ran.err).toBe(0);
    expect(ran.out).toContain('Council bias report');

    // On the PATH (as npm's link puts it): `council` itself, from any directory, and the hints say `council`.
    const bin = binWithCouncil();
    const onPath = { PATH: `${bin}:${BASE_PATH}` };
    expect(shell('council --version', onPath).out).toMatch(/^council\/\d+\.\d+\.\d+ /);
    const on = shell('council demo --sessions 10', onPath);
    expect(on.code).toBe(0);
    const hint = /^Explore further: (.+)$/m.exec(on.out)?.[1];
    expect(hint).toMatch(/^council bias-report --home \S+ --verbose$/);
    expect(on.out).not.toContain('Put council on your PATH');
    expect(shell(hint!, onPath).code).toBe(0);
  }, 120_000);

  it('item 2: config init --bias-records, then ask saves bias records that bias-report reads', () => {
    const home = mkdtempSync(join(tmpdir(), 'council-first-hour-'));
    const env = { LLM_COUNCIL_HOME: home };
    expect(council(['config', 'init', '--bias-records'], env).code).toBe(0);
    const ask = council(['ask', 'Which queue?', '--models', SIM], env);
    expect(ask.code).toBe(0);
    // 3 reviewers × 3 answers.
    expect(readFileSync(join(home, 'bias_metrics.jsonl'), 'utf8').trim().split('\n')).toHaveLength(9);
    const report = JSON.parse(council(['bias-report', '--format', 'json'], env).out) as {
      report: { window: { sessions: number; observations: number } };
    };
    expect(report.report.window).toMatchObject({ sessions: 1, observations: 9 });
  }, 60_000);

  it('item 3: the headline ask example of --help seats at least three members', () => {
    const help = council(['--help'], {}).out;
    const models = /council ask "[^"]*" --models (\S+)/.exec(help)?.[1];
    expect(models?.split(',').length).toBeGreaterThanOrEqual(3);
  });

  it('items 4, 10 and 11: a follow-up keeps its council; history alone lists; show last; no placeholder; upload speaks as council', () => {
    const home = mkdtempSync(join(tmpdir(), 'council-first-hour-'));
    const env = { LLM_COUNCIL_HOME: home };
    const first = council(['ask', 'Which queue?', '--models', SIM, '--chairman', 'simulated:cleo', '--json'], env);
    expect(first.code).toBe(0);
    // No LLM_COUNCIL_MODELS, no config.yaml: the follow-up seats the council it continues.
    const next = council(['ask', '--continue', 'And for a small team?', '--json'], env);
    expect(next.code, next.err).toBe(0);
    const doc = JSON.parse(next.out) as { sessionId: string; config: { members: string[]; chairman: string } };
    expect(doc.config).toMatchObject({ members: SIM.split(','), chairman: 'simulated:cleo' });

    const list = council(['history'], env);
    expect(list.code).toBe(0);
    expect(list.out).toContain('2 of 2 sessions.');
    const last = council(['history', 'show', 'last'], env);
    expect(last.code).toBe(0);
    expect(last.out).toContain(`Session ${doc.sessionId}`);

    expect(council(['doctor', '--frob'], env).err).toBe(
      'council: Unknown option `--frob`. Run "council doctor --help" for the options.\n',
    );
    const upload = council(['telemetry', 'upload'], { ...env, LLM_COUNCIL_BIAS_CONSENT: '2' });
    expect(upload.code).toBe(2);
    expect(upload.err).toMatch(/^council: LLM_COUNCIL_CLOUD_URL and LLM_COUNCIL_CLOUD_TOKEN are not set/);
  }, 60_000);

  it('item 11: completion offers actions, and configured model ids and pools', () => {
    const home = mkdtempSync(join(tmpdir(), 'council-first-hour-'));
    mkdirSync(home, { recursive: true });
    writeFileSync(join(home, 'config.yaml'), 'pools:\n  deep: [openai/gpt-4o, anthropic/claude-3.5-sonnet]\n');
    const env = { LLM_COUNCIL_HOME: home, LLM_COUNCIL_MODELS: SIM };
    expect(council(['completion', 'models'], env).out.trim().split('\n')).toEqual([
      ...SIM.split(','),
      '@deep',
      'openai/gpt-4o',
      'anthropic/claude-3.5-sonnet',
    ]);
    expect(council(['completion', 'bash'], env).out).toContain("actions='list search show consistency mimicry'");
  });
});
