import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The GitHub Action's script (scripts/council-gate-action.mjs), run as the composite action runs it, with a fake
// GITHUB_* environment and a fake `council` that records what it was given. The workflow itself cannot run here.
const script = fileURLToPath(new URL('../../../../scripts/council-gate-action.mjs', import.meta.url));

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], {
    cwd,
    encoding: 'utf8',
  }).trim();

/** A repository with a base commit and a pull request's head commit on a branch. */
function repository() {
  const dir = mkdtempSync(join(tmpdir(), 'council-action-repo-'));
  git(dir, 'init', '-q', '-b', 'main');
  writeFileSync(join(dir, 'parse.ts'), 'export const parse = (s: string) => s;\n');
  git(dir, 'add', '.');
  git(dir, 'commit', '-q', '-m', 'base');
  const base = git(dir, 'rev-parse', 'HEAD');
  git(dir, 'checkout', '-q', '-b', 'feature');
  writeFileSync(join(dir, 'parse.ts'), 'export const parse = (s: string) => s.trim();\n');
  git(dir, 'commit', '-q', '-am', 'trim');
  const head = git(dir, 'rev-parse', 'HEAD');
  return { dir, base, head };
}

/** A fake `council`: logs its argv and the evidence it was given, writes the summary and transcript, exits `code`. */
function fakeCouncil(dir: string, code: number, decision: string): { bin: string; log: string } {
  const log = join(dir, 'council-log.json');
  const bin = join(dir, 'fake-council.mjs');
  writeFileSync(
    bin,
    `import { readFileSync, writeFileSync } from 'node:fs';
const args = process.argv.slice(2);
const value = (name) => args[args.indexOf(name) + 1];
writeFileSync(${JSON.stringify(log)}, JSON.stringify({ args, cwd: process.cwd(), evidence: readFileSync(value('--evidence'), 'utf8') }));
writeFileSync(value('--summary'), '## Council gate: ${decision.toUpperCase()} (exit ${code})\\n');
writeFileSync(value('--transcript'), '{}');
process.stdout.write(JSON.stringify({ decision: '${decision}', exitCode: ${code}, transcript: { path: value('--transcript'), sha256: 'ab12' } }));
process.exit(${code});
`,
  );
  return { bin, log };
}

function runAction(env: Record<string, string>) {
  const runner = mkdtempSync(join(tmpdir(), 'council-action-runner-'));
  const files = { summary: join(runner, 'step-summary.md'), output: join(runner, 'output.txt') };
  writeFileSync(files.summary, '');
  writeFileSync(files.output, '');
  const result = spawnSync(process.execPath, [script], {
    encoding: 'utf8',
    env: {
      PATH: process.env.PATH ?? '',
      RUNNER_TEMP: runner,
      GITHUB_STEP_SUMMARY: files.summary,
      GITHUB_OUTPUT: files.output,
      ...env,
    },
  });
  return { ...result, runner, files };
}

describe('the Council gate action script, with a fake GITHUB_* environment', () => {
  it('runs council gate on git diff base...head, writes the step summary, comment body and outputs, and exits with the gate', () => {
    const repo = repository();
    const event = join(repo.dir, 'event.json');
    writeFileSync(event, JSON.stringify({ pull_request: { base: { sha: repo.base }, head: { sha: repo.head } } }));
    const council = fakeCouncil(repo.dir, 1, 'reject');
    const r = runAction({
      GITHUB_EVENT_PATH: event,
      GITHUB_WORKSPACE: repo.dir,
      COUNCIL_BIN: council.bin,
      COUNCIL_GATE_QUESTION: 'Is this pull request safe to merge?',
      COUNCIL_GATE_MODELS: 'a/x,b/y,c/z',
      COUNCIL_GATE_REQUIRE_UNANIMOUS: 'true',
      COUNCIL_GATE_EXTRA_ARGS: '--seed 7',
    });
    expect(r.status).toBe(1);
    const logged = JSON.parse(readFileSync(council.log, 'utf8')) as { args: string[]; cwd: string; evidence: string };
    expect(logged.evidence).toBe(git(repo.dir, 'diff', '--no-color', `${repo.base}...${repo.head}`) + '\n');
    expect(logged.evidence).toContain('+export const parse = (s: string) => s.trim();');
    expect(logged.cwd).toBe(repo.dir);
    const dir = join(r.runner, 'council-gate');
    expect(logged.args).toEqual([
      'gate',
      'Is this pull request safe to merge?',
      '--models',
      'a/x,b/y,c/z',
      '--require-unanimous',
      '--evidence',
      join(dir, 'pull-request.diff'),
      '--summary',
      join(dir, 'summary.md'),
      '--transcript',
      join(dir, 'transcript.json'),
      '--json',
      '--seed',
      '7',
    ]);
    expect(readFileSync(r.files.summary, 'utf8')).toBe('## Council gate: REJECT (exit 1)\n');
    expect(readFileSync(join(dir, 'comment.md'), 'utf8')).toBe(
      '<!-- council-gate -->\n## Council gate: REJECT (exit 1)\n',
    );
    expect(readFileSync(r.files.output, 'utf8')).toBe(
      [
        'decision=reject',
        'exit-code=1',
        `summary-file=${join(dir, 'summary.md')}`,
        `comment-file=${join(dir, 'comment.md')}`,
        `transcript=${join(dir, 'transcript.json')}`,
        'transcript-sha256=ab12',
        '',
      ].join('\n'),
    );
  });

  it('a gate that could not run still leaves a comment body, and exits 2', () => {
    const repo = repository();
    const bin = join(repo.dir, 'broken-council.mjs');
    writeFileSync(bin, "console.error('council: no key'); process.exit(2);\n");
    const r = runAction({
      GITHUB_WORKSPACE: repo.dir,
      COUNCIL_BIN: bin,
      COUNCIL_GATE_BASE: repo.base,
      COUNCIL_GATE_HEAD: repo.head,
    });
    expect(r.status).toBe(2);
    expect(readFileSync(join(r.runner, 'council-gate', 'comment.md'), 'utf8')).toContain('The gate did not run');
    expect(readFileSync(r.files.output, 'utf8')).toContain('decision=unclear\nexit-code=2\n');
  });

  it('without a pull request event or base and head, it says so and exits 2', () => {
    const repo = repository();
    const r = runAction({ GITHUB_WORKSPACE: repo.dir, COUNCIL_BIN: join(repo.dir, 'none.mjs') });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('no pull request to judge');
  });
});
