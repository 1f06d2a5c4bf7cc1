import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestServer } from '@council/providers/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyProgressEvent, createCouncilProgress } from './council-progress.js';
import { createStyle } from './create-style.js';
import { renderProgressFrame } from './render-progress-frame.js';
import { runCli } from './run-cli.js';
import { captureIo } from './testing/capture-io.js';
import { startCouncilTestServer } from './testing/council-test-server.js';

// Issue 30 item 14: the live display stops when the chairman's answer starts to stream on stdout, and its last frame
// stayed on screen with the chairman's spinner frozen mid-turn.
const SPINNER = /[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/;
const MEMBERS = ['test/alpha', 'test/beta', 'test/gamma'];
const KEY = 'sk-or-v1-FINAL-FRAME';
let server: TestServer;
beforeAll(async () => {
  server = await startCouncilTestServer({ contributors: MEMBERS, apiKey: KEY });
});
afterAll(() => server.close());

describe("the live display's last frame", () => {
  it('shows a streaming chairman as writing below, not a spinner', () => {
    let state = createCouncilProgress({ members: ['a', 'b'], chairman: 'a', startedAt: 0, label: 'test' });
    state = applyProgressEvent(state, { type: 'stage-started', stage: 3, at: 10 });
    state = applyProgressEvent(state, { type: 'model-started', stage: 3, member: 'a', at: 10 });
    const running = renderProgressFrame(state, { now: 500, style: createStyle(false), width: 100 });
    expect(running).toMatch(SPINNER);
    state = applyProgressEvent(state, { type: 'synthesis-streaming', at: 600 });
    const last = renderProgressFrame(state, { now: 700, style: createStyle(false), width: 100 });
    expect(last).not.toMatch(SPINNER);
    expect(last).toMatch(/chairman a +↓ writing the answer below/);
  });

  it('through ask on a terminal: the frame left on screen has no spinner', async () => {
    const home = mkdtempSync(join(tmpdir(), 'council-final-frame-'));
    const c = captureIo({ tty: true, columns: 100 });
    const env = { LLM_COUNCIL_HOME: home, OPENROUTER_BASE_URL: server.url, OPENROUTER_API_KEY: KEY };
    const code = await runCli(['ask', 'Which sort is stable?', '--models', MEMBERS.join(','), '--no-persist'], {
      version: '1.0.0',
      io: c.io,
      env,
      cwd: home,
    });
    expect(code).toBe(0);
    // Each frame starts with "clear to the end of the screen"; the last one is what stays on screen.
    const frames = c.err().split('\u001b[J');
    const last = frames.at(-1)!;
    expect(last).toContain('chairman test/alpha');
    expect(last).not.toMatch(SPINNER);
    expect(last).toContain('↓ writing the answer below');
  }, 30_000);
});
