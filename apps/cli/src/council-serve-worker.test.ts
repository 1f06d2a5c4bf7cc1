import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeBiasFixture } from '../bench/write-bias-fixture.js';

const bundle = fileURLToPath(new URL('../dist/council.js', import.meta.url));
const TOKEN = 'serve-worker-test-token-0123456789abcdef0123456789';
// The fixture's sessions are from January 2026 on: the window is given by date and size, not the last 30 days.
const WINDOW = 'since=2026-01-01&last=1000';

/** The threads of a process (Linux): a worker thread adds one while it runs. */
function threads(pid: number): number {
  return readdirSync(`/proc/${pid}/task`).length;
}

/**
 * `council serve` from the bundled executable over a bias store of 300 five-member sessions: the style-controlled
 * fit of `/api/bias-report?calibrated=true` (1,000 bootstrap refits, seconds of CPU) runs on a worker thread, so a
 * request sent while it runs is answered first. No time is asserted: the order of the two answers is.
 */
describe.runIf(existsSync('/proc/self/task'))(
  'council serve through the bundle: the style fit off the event loop',
  () => {
    let server: ChildProcess;
    let base = '';

    beforeAll(async () => {
      const home = mkdtempSync(join(tmpdir(), 'council-serve-worker-'));
      await writeBiasFixture(join(home, 'bias_metrics.jsonl'), 300);
      server = spawn(process.execPath, [bundle, 'serve', '--port', '0', '--token', TOKEN], {
        env: { PATH: process.env['PATH'] ?? '', LLM_COUNCIL_HOME: home },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      base = await new Promise<string>((resolve, reject) => {
        let out = '';
        server.stdout!.on('data', (chunk: Buffer) => {
          out += chunk.toString('utf8');
          const url = /Council is serving at (http:\/\/127\.0\.0\.1:\d+)\//.exec(out);
          if (url) resolve(url[1]!);
        });
        server.once('exit', (code) => reject(new Error(`council serve exited with ${code}: ${out}`)));
      });
    }, 60_000);

    afterAll(() => {
      server?.kill('SIGTERM');
    });

    const get = async (path: string): Promise<Response> => {
      const response = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${TOKEN}` } });
      expect(response.status).toBe(200);
      return response;
    };

    it('answers GET /api/config while the style-controlled ratings are being fitted', async () => {
      // The same window without the calibrated figures first: the store is read and the thread pool started, so the
      // only thread the next request can add is the worker's.
      await (await get(`/api/bias-report?${WINDOW}`)).json();
      const before = threads(server.pid!);
      const order: string[] = [];
      let styleDone = false;
      const style = get(`/api/bias-report?calibrated=true&${WINDOW}`)
        .then((r) => r.json() as Promise<{ styleControlled?: { computable: boolean; sessions?: number } }>)
        .then((document) => {
          styleDone = true;
          order.push('style');
          return document;
        });
      // Wait for the worker to start (a thread more), or for the answer itself where there is none.
      while (!styleDone && threads(server.pid!) <= before) await new Promise((resolve) => setTimeout(resolve, 10));
      const config = get('/api/config').then(async (r) => {
        await r.json();
        order.push('config');
      });
      const [document] = await Promise.all([style, config]);
      expect(order).toEqual(['config', 'style']);
      // The fit itself came back whole: 300 sessions' rankings with length as a covariate.
      expect(document.styleControlled).toMatchObject({ computable: true, sessions: 300 });
    }, 120_000);
  },
);
