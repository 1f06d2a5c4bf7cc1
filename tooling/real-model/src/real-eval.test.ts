// `council eval` on a real model, through the built `council` executable: a three-item dataset (key content, a human
// preference, a human score) judged by a council of two SmolLM2-135M members, killed with SIGKILL once the first item
// is in the journal, then resumed. Asserts what any real run guarantees — every item done once, the report's shape,
// no NaN — never what the model answered or how it judged.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRealModelServer } from './real-model-server.js';
import type { RealModelServer } from './real-model-server.js';
import { requireBuiltCli, requireRealModel } from './real-model-test-setup.js';

const members = ['llamacpp:smollm2-a', 'llamacpp:smollm2-b'];
const chairman = 'llamacpp:smollm2-chair';
// Five calls for the council item, two for each judged item, one at a time on a loaded 2-core machine.
const evalTimeout = 40 * 60_000;

const dataset = [
  { id: 'capital', question: 'What is the capital of France? Answer in one sentence.', accept: { any_of: ['Paris'] } },
  {
    id: 'backups',
    question: 'How often should a small company test restoring its backups?',
    answers: [
      'Every quarter, and after any change to the backup system: restore files and one whole machine.',
      'Backup software is reliable, so testing restores is rarely needed.',
    ],
    preferred: 0,
  },
  {
    id: 'dns',
    question: 'What does DNS do?',
    answer: 'It translates domain names such as example.com into IP addresses.',
    human_score: 9,
  },
];

interface Run {
  code: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
}

let server: RealModelServer;
let dir: string;
let killed: Run;
let resumed: Run;
let doneBeforeKill: string[];

function journalIds(path: string): string[] {
  if (!existsSync(path)) return [];
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => (JSON.parse(l) as { item_id: string }).item_id);
}

function runEval(cliPath: string, extra: string[], onSpawn?: (kill: () => void) => void): Promise<Run> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    LLAMACPP_BASE_URL: server.baseURL,
    LLM_COUNCIL_HOME: join(dir, 'home'),
    LLM_COUNCIL_BIAS_PERSISTENCE: 'true',
    NO_COLOR: '1',
  };
  const args = [cliPath, 'eval', 'dataset.jsonl', '--models', members.join(','), '--chairman', chairman];
  args.push('--concurrency', '1', '--timeout', '10m', '--bootstrap', '200', '--json', ...extra);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { env, cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
    onSpawn?.(() => child.kill('SIGKILL'));
  });
}

beforeAll(async () => {
  const cliPath = requireBuiltCli();
  server = await startRealModelServer({ modelPath: requireRealModel() });
  dir = mkdtempSync(join(tmpdir(), 'council-real-eval-'));
  writeFileSync(join(dir, 'dataset.jsonl'), dataset.map((d) => JSON.stringify(d)).join('\n') + '\n');
  const journal = join(dir, 'dataset.jsonl.eval.jsonl');
  // Killed once the first item is in the journal: the journal is polled, so the model's pace decides when.
  killed = await runEval(cliPath, [], (kill) => {
    const timer = setInterval(() => {
      if (journalIds(journal).length >= 1) {
        clearInterval(timer);
        kill();
      }
    }, 50);
  });
  doneBeforeKill = journalIds(journal);
  resumed = await runEval(cliPath, ['--resume']);
}, evalTimeout);

afterAll(async () => {
  await server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('council eval on SmolLM2-135M through the built council executable, killed and resumed', () => {
  it('was killed mid-run with at least one item done and at least one not', () => {
    expect(killed.signal, killed.stderr.slice(-2000)).toBe('SIGKILL');
    expect(doneBeforeKill.length).toBeGreaterThanOrEqual(1);
    expect(doneBeforeKill.length).toBeLessThan(dataset.length);
  });

  it('resumes to a report of every item, each once, in the documented shape, with no NaN', () => {
    expect(resumed.code, resumed.stderr.slice(-3000)).toBe(0);
    expect(resumed.stderr).toContain(
      `Eval: 3 items, ${doneBeforeKill.length} already done, ${3 - doneBeforeKill.length} to run`,
    );
    expect(resumed.stdout).not.toContain('NaN');
    const report = JSON.parse(resumed.stdout) as {
      kind: string;
      items: { total: number; done: number; withCouncil: number; withPreference: number; withScore: number };
      members: { member: string; keyContent: { n: number; count: number } }[];
      reviewers: {
        reviewer: string;
        preferences: { n: number; unread: number };
        scores: { n: number; unread: number };
      }[];
      councilVsBest: { items: number };
      sentences: string[];
    };
    expect(report.kind).toBe('council-eval');
    expect(report.items).toMatchObject({ total: 3, done: 3, withCouncil: 1, withPreference: 1, withScore: 1 });
    // Each member answered the one council item, checked once (whether it said Paris is the model's business).
    expect(report.members.map((m) => m.member).sort()).toEqual([...members].sort());
    for (const m of report.members) expect(m.keyContent.n).toBe(1);
    // Each member judged the pair and the scored answer once: read, or counted as unread, never twice.
    expect(report.reviewers.map((r) => r.reviewer).sort()).toEqual([...members].sort());
    for (const r of report.reviewers) {
      expect(r.preferences.n + r.preferences.unread).toBe(1);
      expect(r.scores.n + r.scores.unread).toBe(1);
    }
    expect(report.sentences.length).toBeGreaterThan(0);
    expect(journalIds(join(dir, 'dataset.jsonl.eval.jsonl')).sort()).toEqual(dataset.map((d) => d.id).sort());
  });
});
