import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestServer } from '@council/providers/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../run-cli.js';
import { captureIo } from '../testing/capture-io.js';
import { startCouncilTestServer } from '../testing/council-test-server.js';

const KEY = 'sk-or-v1-GATE-KEY';
let server: TestServer;

beforeAll(async () => {
  server = await startCouncilTestServer({ contributors: [], apiKey: KEY });
});
afterAll(() => server.close());

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

async function gate(args: string[], files: Record<string, string> = {}, env: Record<string, string> = {}) {
  const home = mkdtempSync(join(tmpdir(), 'council-gate-test-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(home, name), text);
  const c = captureIo();
  const code = await runCli(['gate', ...args], {
    version: '1.2.3',
    io: c.io,
    env: { OPENROUTER_BASE_URL: server.url, OPENROUTER_API_KEY: KEY, LLM_COUNCIL_HOME: home, ...env },
    cwd: home,
  });
  return { code, out: c.out(), err: c.err(), home };
}

const diff = 'diff --git a/src/a.ts b/src/a.ts\n+export const parse = (s: string) => s.trim();\n';
const Q = 'Is this change safe to merge?';

describe('council gate against the OpenRouter test server', () => {
  it('unanimous approve exits 0 with a one-screen Markdown summary and a hashed transcript', async () => {
    const r = await gate(
      [Q, '--models', 'test/alpha,test/beta,test/gamma', '--evidence', 'change.diff', '--seed', '3'],
      {
        'change.diff': diff,
      },
    );
    expect(r.code).toBe(0);
    const lines = r.out.trimEnd().split('\n');
    expect(lines[0]).toBe('## ✅ Council gate: APPROVE (exit 0)');
    expect(r.out).toContain(`**Question:** ${Q}`);
    expect(r.out).toContain(
      '**Verdict:** approve — weighted majority, margin +1.00 (binary mode, threshold 0.10, quorum 2).',
    );
    expect(r.out).toContain('**Sensitivity:** No single member changing its vote would change the verdict.');
    expect(r.out).toContain('| Member | Decision | Weight | Confidence | Known reviewer bias |');
    expect(r.out).toMatch(/^\| test\/alpha \| approve \| (2\.00|1\.50|1\.00) \| 0\.80 \| — \|$/m);
    expect(r.out).toContain('### Dissent\n\nThe minority held that the change needs more tests.');
    // The diff is 32 + 1 + 46 + 1 = 80 characters (its two lines and their newlines).
    expect(r.out).toContain('- `change.diff`: 80 characters');
    expect(lines.length).toBeLessThan(40);
    const transcript = /^Transcript: (.+) \(sha256 ([0-9a-f]{64})\)$/m.exec(r.err)!;
    expect(transcript).not.toBeNull();
    const file = readFileSync(transcript[1]!, 'utf8');
    expect(sha256(file)).toBe(transcript[2]);
    expect(r.out).toContain(`sha256 \`${transcript[2]!}\``);
    const doc = JSON.parse(file) as { kind: string; question: string; decision: string; session: { verdict: unknown } };
    expect(doc).toMatchObject({ kind: 'council-gate-transcript', question: Q, decision: 'approve' });
    expect(doc.session.verdict).toBeDefined();
    // Persisted like any session: the history has it, with its verdict.
    const history = readFileSync(join(r.home, 'history.jsonl'), 'utf8');
    expect(history).toContain('"verdict"');
    const shown = captureIo();
    await runCli(['history', 'show', 'last'], {
      version: '1.2.3',
      io: shown.io,
      env: { LLM_COUNCIL_HOME: r.home },
      cwd: r.home,
    });
    expect(shown.out()).toContain('Verdict: APPROVE (weighted majority, margin +1.00; binary, threshold 0.10)');
  }, 30_000);

  it('a majority to reject exits 1', async () => {
    // Two rejects weigh at least 1 + 1.5 against one approve of at most 2: margin ≤ −0.5/4.5.
    const r = await gate([Q, '--models', 'test/reject-a,test/reject-b,test/approve-c', '--no-persist']);
    expect(r.code).toBe(1);
    expect(r.out.split('\n')[0]).toBe('## ❌ Council gate: REJECT (exit 1)');
  }, 30_000);

  it('a tie exits 2 (unclear)', async () => {
    const r = await gate([Q, '--models', 'test/approve-a,test/reject-b', '--no-persist']);
    expect(r.code).toBe(2);
    expect(r.out).toContain('**Verdict:** unclear — an exact tie between approve and reject');
  }, 30_000);

  it('a chairman that fails exits 2, not 0, though every member approved', async () => {
    const r = await gate([
      Q,
      '--models',
      'test/alpha,test/beta,test/gamma',
      '--chairman',
      'test/broken',
      '--no-persist',
    ]);
    expect(r.code).toBe(2);
    expect(r.out.split('\n')[0]).toBe('## ⚠️ Council gate: UNCLEAR (exit 2)');
    expect(r.out).toContain('**Gate:** the council is incomplete (no synthesis), so the gate does not pass.');
    expect(r.out).toContain('_The chairman wrote none._');
  }, 30_000);

  it('--require-unanimous turns an approve with a dissenter into unclear (exit 2)', async () => {
    // Two approvals weigh at least 2.5 against a reject of at most 2: approve by the rule.
    const r = await gate([
      Q,
      '--models',
      'test/approve-a,test/approve-b,test/reject-c',
      '--require-unanimous',
      '--no-persist',
    ]);
    expect(r.code).toBe(2);
    expect(r.out).toContain('**Verdict:** approve');
    expect(r.out).toContain('**Gate:** --require-unanimous: test/reject-c (reject) did not approve.');
  }, 30_000);

  it('a planted secret stops the gate with exit 2 before any request, and the summary file says why', async () => {
    const before = server.requests.length;
    const key = ['sk', 'ant', 'api03', 'PLANTEDq7Lp2Xv9Rt4Wz8Kd'].join('-');
    const r = await gate(
      [Q, '--models', 'test/alpha,test/beta', '--evidence', 'app.env.ts', '--summary', 'summary.md'],
      {
        'app.env.ts': `export const key = "${key}";\n`,
      },
    );
    expect(r.code).toBe(2);
    expect(server.requests.length).toBe(before);
    // `export const key = "` is 20 characters: the key starts in column 21.
    expect(r.err).toContain('app.env.ts:1:21: an Anthropic API key (sk-ant-…)');
    expect(r.err).not.toContain('PLANTED');
    const summary = readFileSync(join(r.home, 'summary.md'), 'utf8');
    expect(
      summary.startsWith(
        '## ⚠️ Council gate: UNCLEAR (exit 2)\n\nThe gate could not run: The evidence contains secrets',
      ),
    ).toBe(true);
    expect(summary).not.toContain('PLANTED');
  }, 30_000);

  it('--json prints the decision, exit code, verdict, transcript hash and the summary; --policy frames the question', async () => {
    const r = await gate(
      [
        '--policy',
        'policy.md',
        '--models',
        'test/alpha,test/beta,test/gamma',
        '--json',
        '--transcript',
        't.json',
        '--no-persist',
      ],
      { 'policy.md': '# Policy\nEvery change needs tests.\n' },
    );
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.out) as {
      decision: string;
      exitCode: number;
      transcript: { path: string; sha256: string };
      verdict: { decision: string };
      summary: string;
    };
    expect(doc).toMatchObject({ decision: 'approve', exitCode: 0, verdict: { decision: 'approve' } });
    expect(doc.transcript.path).toBe(join(r.home, 't.json'));
    expect(sha256(readFileSync(doc.transcript.path, 'utf8'))).toBe(doc.transcript.sha256);
    expect(doc.summary).toContain('**Question:** the policy in `policy.md`');
    const sent = server.requests
      .slice(-1)
      .map((q) => JSON.stringify(q.body))
      .join('');
    expect(sent).toContain('Every change needs tests.');
  }, 30_000);
});

describe('council gate --demo', () => {
  it('runs offline on simulated members that decide, and its exit code follows its summary', async () => {
    const before = server.requests.length;
    const r = await gate(
      [Q, '--demo', '--evidence', 'change.diff', '--seed', '1'],
      { 'change.diff': diff },
      {
        OPENROUTER_API_KEY: '',
        OPENROUTER_BASE_URL: 'http://127.0.0.1:9',
      },
    );
    expect(server.requests.length).toBe(before);
    expect([0, 1, 2]).toContain(r.code);
    const decision = ['APPROVE', 'REJECT', 'UNCLEAR'][r.code]!;
    expect(r.out.split('\n')[0]).toMatch(new RegExp(`^## .+ Council gate: ${decision} \\(exit ${r.code}\\)$`));
    for (const member of ['simulated:ada', 'simulated:basil', 'simulated:cleo'])
      expect(r.out).toMatch(new RegExp(`^\\| ${member} \\| (approve|reject|unclear) \\| `, 'm'));
    expect(r.out).toContain('Simulated members (offline demo)');
    expect(r.out).toContain('### Dissent');
    expect(existsSync(join(r.home, 'history.jsonl'))).toBe(false);
  }, 30_000);

  it('gives the same decisions for the same question and evidence whatever the seed', async () => {
    const decisions = async (seed: string) => {
      const r = await gate([Q, '--demo', '--evidence', 'change.diff', '--seed', seed, '--json'], {
        'change.diff': diff,
      });
      const doc = JSON.parse(r.out) as { verdict: { votes: { member: string; decision: string }[] } };
      return doc.verdict.votes.map((v) => [v.member, v.decision]);
    };
    expect(await decisions('2')).toEqual(await decisions('9'));
  }, 30_000);

  it('reads --evidence - from stdin', async () => {
    const home = mkdtempSync(join(tmpdir(), 'council-gate-stdin-'));
    const c = captureIo();
    const io = { ...c.io, stdinIsTTY: false, readStdin: () => Promise.resolve(Buffer.from(diff)) };
    const code = await runCli(['gate', Q, '--demo', '--evidence', '-', '--json'], {
      version: '1.2.3',
      io,
      env: { LLM_COUNCIL_HOME: home },
      cwd: home,
    });
    expect([0, 1, 2]).toContain(code);
    const doc = JSON.parse(c.out()) as { evidence: { items: { name: string; chars: number }[] } };
    expect(doc.evidence.items).toMatchObject([{ name: 'stdin', chars: 80 }]);
  }, 30_000);
});
