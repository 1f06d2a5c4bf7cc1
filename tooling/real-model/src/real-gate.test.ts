// `council gate` on a real model, through the built `council` executable: a jury of three SmolLM2-135M members and a
// chairman behind the fixture, judging a small diff. Asserts what any real run guarantees — the gate ends with one of
// the three verdicts and its exit code, every vote is a decision (or unclear when none could be read), the transcript
// is written with the printed hash — never which way the model decides.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRealModelServer } from './real-model-server.js';
import type { RealModelServer } from './real-model-server.js';
import { requireBuiltCli, requireRealModel } from './real-model-test-setup.js';

const members = ['llamacpp:smollm2-a', 'llamacpp:smollm2-b', 'llamacpp:smollm2-c'];
const chairman = 'llamacpp:smollm2-chair';
// Seven model calls (and a repair request per juror whose decision cannot be read), one at a time, on 2 loaded cores.
const gateTimeout = 30 * 60_000;

interface GateDocument {
  decision: string;
  exitCode: number;
  verdict: { decision: string; margin: number; votes: { member: string; decision: string | null; read: string }[] };
  transcript: { path: string; sha256: string };
}

let server: RealModelServer;
let home: string;
let run: { exitCode: number | null; stdout: string; stderr: string };

beforeAll(async () => {
  const cliPath = requireBuiltCli();
  server = await startRealModelServer({ modelPath: requireRealModel() });
  home = mkdtempSync(join(tmpdir(), 'council-real-gate-'));
  writeFileSync(
    join(home, 'change.diff'),
    'diff --git a/src/greet.ts b/src/greet.ts\n--- a/src/greet.ts\n+++ b/src/greet.ts\n@@ -1 +1 @@\n-export const greet = (name: string) => "Hi " + name;\n+export const greet = (name: string) => `Hello, ${name.trim()}!`;\n',
  );
  const args = [
    cliPath,
    'gate',
    'Is this change safe to merge?',
    '--evidence',
    'change.diff',
    '--models',
    members.join(','),
    '--chairman',
    chairman,
    '--timeout',
    '10m',
    '--seed',
    '1',
    '--json',
  ];
  run = await new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      cwd: home,
      env: { ...process.env, LLAMACPP_BASE_URL: server.baseURL, LLM_COUNCIL_HOME: home, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', reject);
    child.on('close', (exitCode) =>
      resolve({ exitCode, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') }),
    );
  });
}, gateTimeout);

afterAll(async () => {
  await server?.close();
  if (home) rmSync(home, { recursive: true, force: true });
});

describe('council gate with a jury of SmolLM2-135M through the built council executable', () => {
  it('ends with approve, reject or unclear and the matching exit code, each vote read or counted unclear', () => {
    const explain = `council gate exited ${String(run.exitCode)}; its stderr ends:\n${run.stderr.slice(-3000)}`;
    const doc = JSON.parse(run.stdout) as GateDocument;
    expect(['approve', 'reject', 'unclear'], explain).toContain(doc.decision);
    expect(['approve', 'reject', 'unclear']).toContain(doc.verdict.decision);
    expect(run.exitCode, explain).toBe({ approve: 0, reject: 1, unclear: 2 }[doc.decision]);
    expect(doc.exitCode).toBe(run.exitCode);
    expect(doc.verdict.votes.map((v) => v.member)).toEqual(members);
    for (const vote of doc.verdict.votes) {
      expect([null, 'approve', 'reject', 'unclear']).toContain(vote.decision);
      if (vote.read === 'unread') expect(vote.decision).toBe('unclear');
    }
    expect(doc.verdict.margin).toBeGreaterThanOrEqual(-1);
    expect(doc.verdict.margin).toBeLessThanOrEqual(1);
    const transcript = readFileSync(doc.transcript.path, 'utf8');
    expect(createHash('sha256').update(transcript).digest('hex')).toBe(doc.transcript.sha256);
    expect(run.stderr).toContain(`(sha256 ${doc.transcript.sha256})`);
  });
});
