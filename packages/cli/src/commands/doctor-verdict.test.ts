import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../run-cli.js';
import { captureIo } from '../testing/capture-io.js';

async function doctor(home: string, env: Record<string, string> = {}) {
  const c = captureIo();
  const code = await runCli(['doctor', '--offline'], {
    version: '1.0.0',
    io: c.io,
    env: { LLM_COUNCIL_HOME: home, ...env },
    cwd: home,
  });
  return { code, out: c.out(), err: c.err() };
}

// Issue 30 item 14: the last line must agree with the rows above it; item 15: the keys file has its own row.
describe("doctor's verdict and its keys file row", () => {
  it('a council can run but a row warns: the last line names the warning, not "everything is in place"', async () => {
    const home = mkdtempSync(join(tmpdir(), 'council-doctor-verdict-'));
    // One unreadable line in the history: a warning, not a failure.
    writeFileSync(join(home, 'history.jsonl'), '{"torn": \n');
    const r = await doctor(home, { OPENROUTER_API_KEY: 'sk-or-v1-VERDICT' });
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/│ history +│ warn/);
    expect(r.out).toContain('A council can run; 1 warning to read: "history".');
    expect(r.out).not.toContain('Everything needed is in place.');
  });

  it('shows the keys file: none, its keys by name (never a value), or refused when others can read it', async () => {
    const home = mkdtempSync(join(tmpdir(), 'council-doctor-keys-'));
    expect((await doctor(home)).out).toMatch(/keys file +│ - +│ none \(/);
    writeFileSync(join(home, 'keys'), 'OPENROUTER_API_KEY=sk-or-v1-KEYS-ROW-SECRET\n', { mode: 0o600 });
    const read = await doctor(home);
    expect(read.out).toMatch(/keys file +│ ok +│ .*mode 0600: OPENROUTER_API_KEY \(values never shown/);
    expect(read.out).not.toContain('KEYS-ROW-SECRET');
    expect(read.out).toMatch(/OPENROUTER_API_KEY +│ ok/);
    chmodSync(join(home, 'keys'), 0o640);
    const refused = await doctor(home);
    expect(refused.code).toBe(1);
    expect(refused.out).toMatch(/keys file +│ FAIL +│ The keys file .* is open to other users \(mode 0640\)/);
  });

  it('a local server that refuses the connection: nothing is listening, start it (not "your network")', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as { port: number };
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const home = mkdtempSync(join(tmpdir(), 'council-doctor-refused-'));
    const c = captureIo({ columns: 400 });
    const code = await runCli(['doctor', '--json'], {
      version: '1.0.0',
      io: c.io,
      env: { LLM_COUNCIL_HOME: home, OLLAMA_BASE_URL: `http://127.0.0.1:${port}/v1` },
      cwd: home,
    });
    expect(code).toBe(1);
    const { checks } = JSON.parse(c.out()) as { checks: { check: string; detail: string }[] };
    expect(checks.find((x) => x.check === 'ollama reachable')!.detail).toBe(
      `http://127.0.0.1:${port}/v1/models: ECONNREFUSED; check OLLAMA_BASE_URL: nothing is listening there (start the ollama server)`,
    );
  });
});
