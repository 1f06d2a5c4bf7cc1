import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultConfig } from '@council/core';
import type { TestServer } from '@council/providers/test';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createProgressLines } from './progress-lines.js';
import { runCli } from './run-cli.js';
import { captureIo } from './testing/capture-io.js';
import { startCouncilTestServer } from './testing/council-test-server.js';

describe('createProgressLines', () => {
  it('prints "still waiting" only once a call has been pending 15 s, then at most every 15 s, naming what is pending', () => {
    let t = 1_000_000;
    const out: string[] = [];
    const lines = createProgressLines({ write: (s) => void out.push(s), now: () => t });
    lines.onEvent({ type: 'stage-started', stage: 1, calls: 3 });
    for (const member of ['a', 'b', 'hung']) lines.onEvent({ type: 'model-started', stage: 1, member, model: member });
    t += 2_000;
    lines.onEvent({
      type: 'model-finished',
      stage: 1,
      member: 'a',
      model: 'a',
      latencyMs: 2_000,
      usage: { inputTokens: 1, outputTokens: 1 },
    });
    lines.onEvent({
      type: 'model-failed',
      stage: 1,
      member: 'b',
      model: 'b',
      reason: 'error',
      message: 'No endpoints found for b.\nstack line',
    });
    // Ticks every second: nothing until the pending call is 15 s old.
    const tickUntil = (end: number) => {
      while (t < end) {
        t += 1_000;
        lines.tick();
      }
    };
    tickUntil(1_000_000 + 14_000);
    expect(out.filter((l) => l.includes('still waiting'))).toEqual([]);
    tickUntil(1_000_000 + 50_000);
    // At 15 s, 30 s and 45 s: never more often than every 15 s.
    expect(out.filter((l) => l.includes('still waiting'))).toEqual([
      '  still waiting for hung (15 s)\n',
      '  still waiting for hung (30 s)\n',
      '  still waiting for hung (45 s)\n',
    ]);
    lines.onEvent({
      type: 'model-failed',
      stage: 1,
      member: 'hung',
      model: 'hung',
      reason: 'timeout',
      message: 'no answer within 60000 ms',
    });
    lines.onEvent({ type: 'stage-finished', stage: 1, succeeded: 1, failed: 2 });
    tickUntil(1_000_000 + 100_000);
    expect(out).toEqual([
      'stage 1 (answers): 3 calls started\n',
      '  a answered (2.0 s)\n',
      '  b failed at stage 1: No endpoints found for b.\n',
      '  still waiting for hung (15 s)\n',
      '  still waiting for hung (30 s)\n',
      '  still waiting for hung (45 s)\n',
      '  hung timed out at stage 1: no answer within 60000 ms\n',
      'stage 1 (answers) done: 1 answered, 2 failed (50.0 s)\n',
    ]);
  });

  it('says at the end of stage 2 how many rankings were read, when core reports it', () => {
    const out: string[] = [];
    const lines = createProgressLines({ write: (s) => void out.push(s), now: () => 0 });
    lines.onEvent({ type: 'stage-finished', stage: 2, succeeded: 4, failed: 0, unread: 4 });
    lines.onEvent({ type: 'stage-finished', stage: 2, succeeded: 4, failed: 1, unread: 1 });
    lines.onEvent({ type: 'stage-finished', stage: 2, succeeded: 1, failed: 0, unread: 0 });
    // Without the count (an older core), and with no review back, the line is as it was.
    lines.onEvent({ type: 'stage-finished', stage: 2, succeeded: 3, failed: 0 });
    lines.onEvent({ type: 'stage-finished', stage: 2, succeeded: 0, failed: 3, unread: 0 });
    expect(out).toEqual([
      'stage 2 (reviews) done: 4 reviewed, 0 of 4 rankings read (0.0 s)\n',
      'stage 2 (reviews) done: 4 reviewed, 3 of 4 rankings read, 1 failed (0.0 s)\n',
      'stage 2 (reviews) done: 1 reviewed, 1 of 1 ranking read (0.0 s)\n',
      'stage 2 (reviews) done: 3 reviewed (0.0 s)\n',
      'stage 2 (reviews) done: 0 reviewed, 3 failed (0.0 s)\n',
    ]);
  });

  it("says when a reviewer's second call was a repair request, not a second review", () => {
    const out: string[] = [];
    const lines = createProgressLines({ write: (s) => void out.push(s), now: () => 0 });
    const usage = { inputTokens: 1, outputTokens: 1 };
    lines.onEvent({ type: 'model-finished', stage: 2, member: 'a', model: 'a', latencyMs: 2_000, usage });
    lines.onEvent({ type: 'model-finished', stage: 2, member: 'a', model: 'a', latencyMs: 500, usage });
    lines.onEvent({ type: 'model-finished', stage: 2, member: 'b', model: 'b', latencyMs: 1_000, usage });
    expect(out).toEqual([
      '  a reviewed (2.0 s)\n',
      '  a replied to a repair request (0.5 s)\n',
      '  b reviewed (1.0 s)\n',
    ]);
  });

  it('says when a call is queued for its endpoint, lists it apart from the calls still waiting, and times it from its dispatch', () => {
    let t = 0;
    const out: string[] = [];
    const lines = createProgressLines({ write: (s) => void out.push(s), now: () => t });
    for (const member of ['a', 'local1', 'local2'])
      lines.onEvent({ type: 'model-started', stage: 1, member, model: member });
    lines.onEvent({ type: 'model-queued', stage: 1, member: 'local2', model: 'local2' });
    t = 16_000;
    lines.tick();
    // a and local1 have run 16 s; local2 is not hung, it waits for local1's slot.
    t = 20_000;
    for (const member of ['a', 'local1'])
      lines.onEvent({
        type: 'model-finished',
        stage: 1,
        member,
        model: member,
        latencyMs: 20_000,
        usage: { inputTokens: 1, outputTokens: 1 },
      });
    lines.onEvent({ type: 'model-dispatched', stage: 1, member: 'local2', model: 'local2' });
    // 30 s after it started, 10 s after it was sent: not yet 15 s of waiting.
    t = 30_000;
    lines.tick();
    t = 35_000;
    lines.tick();
    expect(out).toEqual([
      '  local2 queued at stage 1: waiting for a free slot of its endpoint\n',
      '  still waiting for a, local1 (16 s); queued for a free slot: local2\n',
      '  a answered (20.0 s)\n',
      '  local1 answered (20.0 s)\n',
      '  still waiting for local2 (15 s)\n',
    ]);
  });

  it('hold stops the ticker and keeps lines back; release prints them in order', () => {
    vi.useFakeTimers();
    try {
      let t = 0;
      const out: string[] = [];
      const lines = createProgressLines({ write: (s) => void out.push(s), now: () => t, intervalMs: 1_000 });
      lines.start();
      lines.onEvent({ type: 'stage-started', stage: 3, calls: 1 });
      lines.onEvent({ type: 'model-started', stage: 3, member: 'chair', model: 'chair' });
      lines.hold();
      // Ten seconds pending with a 1 s interval: a running ticker would have printed "still waiting" lines.
      for (let i = 0; i < 10; i++) {
        t += 1_000;
        vi.advanceTimersByTime(1_000);
      }
      lines.onEvent({
        type: 'model-finished',
        stage: 3,
        member: 'chair',
        model: 'chair',
        latencyMs: 10_000,
        usage: { inputTokens: 1, outputTokens: 1 },
      });
      lines.onEvent({ type: 'stage-finished', stage: 3, succeeded: 1, failed: 0 });
      expect(out).toEqual(['stage 3 (synthesis): 1 call started\n']);
      lines.release();
      expect(out).toEqual([
        'stage 3 (synthesis): 1 call started\n',
        '  chair synthesised (10.0 s)\n',
        'stage 3 (synthesis) done: 1 synthesised (10.0 s)\n',
      ]);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('council ask in a pipe (issue 15 item 3)', () => {
  const KEY = 'sk-or-v1-PROGRESS-KEY';
  const MEMBERS = ['test/alpha', 'test/beta', 'test/gamma'];
  let server: TestServer;
  beforeAll(async () => {
    server = await startCouncilTestServer({ contributors: MEMBERS, apiKey: KEY });
  });
  afterAll(() => server.close());

  it('prints plain progress lines on stderr when it is not a terminal: stages, answers, failures', async () => {
    const home = mkdtempSync(join(tmpdir(), 'council-progress-'));
    const c = captureIo();
    const env = { OPENROUTER_BASE_URL: server.url, OPENROUTER_API_KEY: KEY, LLM_COUNCIL_HOME: home };
    const args = [
      'ask',
      'PROGRESS-QUERY: which test first?',
      '--models',
      [...MEMBERS, 'test/broken', 'test/hang'].join(','),
      '--chairman',
      'test/alpha',
      '--timeout',
      '1s',
      '--no-persist',
    ];
    expect(await runCli(args, { version: '1.2.3', io: c.io, env, cwd: home })).toBe(0);
    const err = c.err().split('\n');
    expect(err[0]).toBe('stage 1 (answers): 5 calls started');
    for (const m of MEMBERS)
      expect(err).toContainEqual(
        expect.stringMatching(new RegExp(`^  ${m.replace('/', '\\/')} answered \\(\\d+\\.\\d s\\)$`)),
      );
    // A provider's message longer than 160 characters is kept in whole sentences up to 240 (issue 30 item 14: a line
    // cut mid-sentence lost its advice): this one's two sentences, 90-odd and 120-odd characters, are shown whole.
    expect(err).toContainEqual(
      expect.stringMatching(
        /^ {2}test\/broken failed at stage 1: openrouter does not serve the model "test\/broken" \(HTTP 404: .+\)\. Check the model id .+ and the base URL http:\/\/127\.0\.0\.1:\d+\.$/,
      ),
    );
    const broken = err.find((l) => l.startsWith('  test/broken'))!.slice('  test/broken failed at stage 1: '.length);
    expect(broken.length).toBeGreaterThan(160);
    expect(broken.length).toBeLessThanOrEqual(240);
    expect(err).toContainEqual('  test/hang timed out at stage 1: no answer within 1000 ms');
    expect(err).toContainEqual(expect.stringMatching(/^stage 1 \(answers\) done: 3 answered, 2 failed \(\d+\.\d s\)$/));
    expect(err).toContainEqual('stage 2 (reviews): 3 calls started');
    expect(err).toContainEqual(
      expect.stringMatching(/^stage 2 \(reviews\) done: 3 reviewed, 3 of 3 rankings read \(\d+\.\d s\)$/),
    );
    expect(err).toContainEqual('stage 3 (synthesis): 1 call started');
    expect(err).toContainEqual(expect.stringMatching(/^ {2}test\/alpha synthesised \(\d+\.\d s\)$/));
    // Progress never repeats the question, and is not drawn with escape codes.
    expect(c.err()).not.toContain('PROGRESS-QUERY');
    expect(c.err()).not.toContain('\u001b[');
  }, 20_000);

  it('--help states the default timeouts, and they are the configuration defaults', async () => {
    for (const command of ['ask', 'batch']) {
      const c = captureIo();
      expect(await runCli([command, '--help'], { version: '1.2.3', io: c.io, env: {} })).toBe(0);
      expect(c.out()).toContain('default: 120s to answer, 120s to review, 180s to synthesise; config.yaml timeouts');
    }
    expect(defaultConfig.timeouts).toEqual({ stage1Ms: 120_000, stage2Ms: 120_000, stage3Ms: 180_000 });
  });

  it('draws no plain lines when the live display runs on a terminal', async () => {
    const home = mkdtempSync(join(tmpdir(), 'council-progress-'));
    const c = captureIo({ tty: true, columns: 100 });
    const env = { OPENROUTER_BASE_URL: server.url, OPENROUTER_API_KEY: KEY, LLM_COUNCIL_HOME: home };
    expect(
      await runCli(['ask', 'q', '--models', MEMBERS.join(','), '--no-persist'], {
        version: '1.2.3',
        io: c.io,
        env,
        cwd: home,
      }),
    ).toBe(0);
    expect(c.err()).not.toContain('stage 1 (answers): 3 calls started');
  }, 20_000);
});
