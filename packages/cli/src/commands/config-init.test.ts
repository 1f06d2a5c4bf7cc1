import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../run-cli.js';
import { captureIo } from '../testing/capture-io.js';

async function run(argv: string[], home: string) {
  const c = captureIo();
  const code = await runCli(argv, { version: '1.0.0', io: c.io, env: { LLM_COUNCIL_HOME: home }, cwd: tmpdir() });
  return { code, out: c.out(), err: c.err() };
}

describe('council config init (issue 15 item 12)', () => {
  it('writes a commented config.yaml (0600) that changes nothing until a line is uncommented', async () => {
    const home = join(mkdtempSync(join(tmpdir(), 'council-init-')), 'home');
    const r = await run(['config', 'init'], home);
    expect(r.code).toBe(0);
    const path = join(home, 'config.yaml');
    expect(r.out).toBe(
      `Wrote ${path}: every key commented out, with its default. Uncomment what you want to change, then check it with council config show.\n` +
        `Bias records are off until you opt in: to collect them for council bias-report, uncomment bias_persistence: true in it.\n`,
    );
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const text = readFileSync(path, 'utf8');
    // Every line is a comment or blank.
    expect(text.split('\n').filter((line) => line.trim() !== '' && !line.startsWith('#'))).toEqual([]);
    for (const key of [
      'members',
      'chairman',
      'pools',
      'strategy',
      'mode',
      'order',
      'quorum',
      'retries',
      'max_cost_usd',
      'max_reply_bytes',
      'timeouts',
      'bias_audit',
      'bias_persistence',
      'exclude_self_votes',
      'self_review',
      'model_options',
      'providers',
      'verdict',
      'verdict_min_margin',
    ]) {
      expect(text).toContain(`# ${key}:`);
    }
    const shown = await run(['config', 'show', '--json'], home);
    expect(shown.code).toBe(0);
    expect(JSON.parse(shown.out)).toMatchObject({
      council: { strategy: 'balanced', mode: 'consensus', order: 'latin-square', quorum: 2 },
    });
  });

  it('every example line, uncommented, is valid configuration with the stated defaults', async () => {
    const home = mkdtempSync(join(tmpdir(), 'council-init-'));
    expect((await run(['config', 'init'], home)).code).toBe(0);
    const path = join(home, 'config.yaml');
    // A key is a name, or a model id under model_options (openai/gpt-4o:).
    const uncommented = readFileSync(path, 'utf8').replace(/^# ( *[a-z0-9_-]+(?:\/[a-z0-9._-]+)?:(?: |$))/gm, '$1');
    writeFileSync(path, uncommented);
    const shown = await run(['config', 'show', '--json'], home);
    expect(shown.err).toBe('');
    expect(JSON.parse(shown.out)).toMatchObject({
      council: {
        strategy: 'balanced',
        mode: 'consensus',
        order: 'latin-square',
        quorum: 2,
        verdict: 'binary',
        verdictMinMargin: 0.1,
        strategies: ['balanced', 'compliance-first', 'goal-seeking', 'novelty', 'risk-averse'],
        modelOptions: {
          'openai/gpt-4o': {
            system: 'Answer in at most three paragraphs, and say what you are unsure of.',
            temperature: 0.2,
          },
          'anthropic/claude-3.5-sonnet': { temperature: 0.7 },
        },
      },
    });
    expect((await run(['config', 'show'], home)).out).toMatch(
      /model options +openai\/gpt-4o \(a system prompt, temperature 0\.2\); anthropic\/claude-3\.5-sonnet \(temperature 0\.7\)\n/,
    );
  });

  it('names the jury prompts by the keys config.yaml takes, with the placeholders each needs', async () => {
    const home = mkdtempSync(join(tmpdir(), 'council-init-'));
    expect((await run(['config', 'init'], home)).code).toBe(0);
    const path = join(home, 'config.yaml');
    const text = readFileSync(path, 'utf8').replace(/\n# /g, ' ');
    expect(text).toContain("jury_prompt (each member's question; needs {query}");
    expect(text).toContain("jury_chairman_prompt (the chairman's rationale and dissent; needs {votes} and {verdict})");
    // Those keys, with those placeholders, load; without them config show names what is missing.
    writeFileSync(
      path,
      'verdict: tie-breaker\njury_prompt: "Decide {query}"\njury_chairman_prompt: "{votes} then {verdict}"\n',
    );
    const shown = await run(['config', 'show', '--json'], home);
    expect(shown.err).toBe('');
    expect(JSON.parse(shown.out)).toMatchObject({ council: { verdict: 'tie-breaker', verdictMinMargin: 0.1 } });
    expect((await run(['config', 'show'], home)).out).toMatch(/jury +verdict tie-breaker, min margin 0\.1\n/);
    writeFileSync(path, 'jury_chairman_prompt: "{votes} only"\n');
    const bad = await run(['config', 'show'], home);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('must contain the placeholder {verdict}');
  });

  it('never overwrites an existing config.yaml', async () => {
    const home = mkdtempSync(join(tmpdir(), 'council-init-'));
    const path = join(home, 'config.yaml');
    writeFileSync(path, 'strategy: novelty\n');
    expect(await run(['config', 'init'], home)).toEqual({
      code: 1,
      out: '',
      err: `council: ${path} already exists; nothing was overwritten. Edit it, or move it away and run council config init again.\n`,
    });
    expect(readFileSync(path, 'utf8')).toBe('strategy: novelty\n');
  });

  // The first hour: config init (as the bias-report note suggests), then config init --bias-records (as config init's
  // own note suggested) answered only "already exists; … Edit it", without saying what to change.
  it('--bias-records over an existing config.yaml: names the line to change, or says bias records are on already', async () => {
    const home = mkdtempSync(join(tmpdir(), 'council-init-'));
    const path = join(home, 'config.yaml');
    expect((await run(['config', 'init'], home)).code).toBe(0);
    const written = readFileSync(path, 'utf8');
    // The template's commented bias_persistence line, counted from 1.
    const line = written.split('\n').findIndex((l) => l.startsWith('# bias_persistence: true')) + 1;
    expect(line).toBeGreaterThan(1);
    expect(await run(['config', 'init', '--bias-records'], home)).toEqual({
      code: 1,
      out: '',
      err: `council: ${path} already exists; nothing was overwritten. To turn bias records on, make its line ${line} read bias_persistence: true (not commented out), then check with council config show.\n`,
    });
    expect(readFileSync(path, 'utf8')).toBe(written);

    writeFileSync(path, 'strategy: novelty\n');
    expect((await run(['config', 'init', '--bias-records'], home)).err).toBe(
      `council: ${path} already exists; nothing was overwritten. To turn bias records on, add the line bias_persistence: true to it, then check with council config show.\n`,
    );

    writeFileSync(path, 'strategy: novelty\nbias_persistence: true   # on\n');
    expect(await run(['config', 'init', '--bias-records'], home)).toEqual({
      code: 0,
      out: `${path} already turns bias records on (bias_persistence: true): nothing was changed.\n`,
      err: '',
    });
    expect(readFileSync(path, 'utf8')).toBe('strategy: novelty\nbias_persistence: true   # on\n');
  });
});

describe.runIf(process.platform === 'linux')('council config init on a full disk (issue 27 item 2)', () => {
  it('fails with one message and leaves no config.yaml (empty or half) behind, so the retry works', async () => {
    const { injectWriteFaults } = await import('@council/bias-store/test');
    const { readdirSync } = await import('node:fs');
    for (const bytes of [0, 100]) {
      const home = mkdtempSync(join(tmpdir(), 'council-init-'));
      const path = join(home, 'config.yaml');
      const injected = injectWriteFaults({ under: home, at: 0, bytes, fault: 'ENOSPC' });
      let r;
      try {
        r = await run(['config', 'init'], home);
      } finally {
        injected.restore();
      }
      expect(r).toEqual({
        code: 1,
        out: '',
        err: `council: Cannot write ${path}: the disk is full; free some space (ENOSPC). Nothing was written: run council config init again once fixed.\n`,
      });
      expect(readdirSync(home)).toEqual([]); // neither config.yaml nor a temporary file
      expect((await run(['config', 'init'], home)).code).toBe(0);
      expect(readFileSync(path, 'utf8')).toContain('# strategy:');
    }
  });
});

describe.runIf(process.platform === 'linux')(
  'council config init under a file-size limit of 0 (ulimit -f 0, a child process)',
  () => {
    it('no config.yaml is left behind to block the retry', async () => {
      const { spawnSync } = await import('node:child_process');
      const { existsSync, readdirSync } = await import('node:fs');
      const { fileURLToPath } = await import('node:url');
      const home = mkdtempSync(join(tmpdir(), 'council-init-'));
      const program = [
        `import { runCli } from ${JSON.stringify(fileURLToPath(new URL('../run-cli.ts', import.meta.url)))};`,
        'const io = { stdout: (t) => process.stdout.write(t), stderr: (t) => process.stderr.write(t) };',
        `process.exitCode = await runCli(['config', 'init'], { version: '1.0.0', io, env: { LLM_COUNCIL_HOME: ${JSON.stringify(home)} } });`,
      ].join('\n');
      const quoted = [process.execPath, '--import', 'tsx', '--input-type=module', '-e', program]
        .map((a) => `'${a.replace(/'/g, "'\\''")}'`)
        .join(' ');
      const child = spawnSync('bash', ['-c', `ulimit -f 0 && exec ${quoted}`], { encoding: 'utf8', timeout: 30_000 });
      expect(child.status).toBe(1);
      expect(child.stderr).toContain(
        `council: Cannot write ${join(home, 'config.yaml')}: the file reached the largest size this process may write (a file-size limit, ulimit -f); raise the limit or choose another path (EFBIG).`,
      );
      expect(existsSync(join(home, 'config.yaml'))).toBe(false);
      expect(readdirSync(home)).toEqual([]);
    }, 40_000);
  },
);
