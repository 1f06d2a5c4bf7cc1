import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../run-cli.js';
import { captureIo } from '../testing/capture-io.js';

/** A port on 127.0.0.1 nothing listens on: taken, then let go. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

// Issue 30 item 14: an ollama that is not running advised raising the stage timeouts, and each progress line was cut
// in the middle of its advice ("Check that the se…").
describe('ask when the local server refuses the connection', () => {
  it('says nothing is listening, in whole sentences, and advises no longer deadline', async () => {
    const port = await closedPort();
    const home = mkdtempSync(join(tmpdir(), 'council-refused-'));
    const c = captureIo({ tty: false });
    const env = { OLLAMA_BASE_URL: `http://127.0.0.1:${port}/v1`, LLM_COUNCIL_HOME: home };
    const code = await runCli(
      ['ask', 'Is anyone there?', '--models', 'ollama:a,ollama:b,ollama:c', '--retries', '0', '--no-persist'],
      { version: '1.0.0', io: c.io, env, cwd: home },
    );
    expect(code).not.toBe(0);
    const advice =
      'nothing is listening there. Start the server (a local one such as ollama must be running) or correct its address, then retry.';
    const failures = c
      .err()
      .split('\n')
      .filter((line) => / failed at stage 1: /.test(line));
    expect(failures).toHaveLength(3);
    for (const line of failures) {
      expect(line).toContain(`The connection to ollama at http://127.0.0.1:${port} was refused while calling`);
      expect(line.endsWith(advice)).toBe(true);
    }
    expect(c.err()).toContain('Fix or replace the failing members.');
    expect(c.err()).not.toContain('timeouts');
    expect(c.err()).not.toContain('lower the quorum');
  }, 30_000);
});
