import { chmodSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestServer } from '@council/providers/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CommandContext } from '../command-context.js';
import { runCli } from '../run-cli.js';
import { configResponseSchema, sessionListSchema } from '../serve/api-schemas.js';
import type { CouncilServer } from '../serve/serve-council.js';
import { createServeClient } from '../serve/serve-test-client.js';
import { captureIo, testContext } from '../testing/capture-io.js';
import { startCouncilTestServer } from '../testing/council-test-server.js';
import { DEMO_MEMBERS } from './demo-command.js';
import { runServeCommand } from './serve-command.js';
import type { ServeCommandOptions } from './serve-command.js';

const KEY = 'sk-or-v1-SERVE-CMD-KEY';
const MEMBERS = ['test/alpha', 'test/beta', 'test/gamma'];
const token32 = '0123456789abcdefghijklmnopqrstuv';
let provider: TestServer;

beforeAll(async () => {
  provider = await startCouncilTestServer({ contributors: MEMBERS, apiKey: KEY });
});
afterAll(() => provider.close());

async function cli(args: string[]) {
  const c = captureIo();
  const code = await runCli(args, { version: '0.0.0-test', io: c.io, env: {}, cwd: tmpdir() });
  return { code, out: c.out(), err: c.err() };
}

/** Runs `council serve` in-process until `stop` is called; resolves once it listens. */
async function launch(options: ServeCommandOptions, ctx: CommandContext) {
  let stop: (reason: string) => void = () => undefined;
  const stopped = new Promise<string>((resolve) => (stop = resolve));
  let listening: (server: CouncilServer) => void = () => undefined;
  const ready = new Promise<CouncilServer>((resolve) => (listening = resolve));
  const exit = runServeCommand(options, ctx, { stopped, onListening: listening });
  const server = await Promise.race([
    ready,
    exit.then(() => Promise.reject(new Error('serve ended before listening'))),
  ]);
  return { server, stop, exit };
}

describe('council serve: usage errors (issue 16)', () => {
  it('refuses a bad port, a wildcard host, a host off loopback without a long enough token, a token no header can carry', async () => {
    const port = await cli(['serve', '--port', '70000']);
    expect(port.code).toBe(2);
    expect(port.err).toMatch(/--port/);
    expect(port.err).toMatch(/65535/);
    for (const host of ['0.0.0.0', '::']) {
      const r = await cli(['serve', '--host', host]);
      expect(r.code).toBe(2);
      expect(r.err).toContain(`--host ${host} binds every interface`);
    }
    const remote = await cli(['serve', '--host', '192.0.2.1']);
    expect(remote.code).toBe(2);
    expect(remote.err).toContain(
      '--host 192.0.2.1 is reachable from other machines: give a token of at least 32 characters (--token-file or --token)',
    );
    const short = await cli(['serve', '--host', '192.0.2.1', '--token', token32.slice(1)]);
    expect(short.code).toBe(2);
    expect(short.err).toContain('the token from --token has 31 characters');
    const spaced = await cli(['serve', '--token', 'with a space']);
    expect(spaced.code).toBe(2);
    expect(spaced.err).toContain('holds a character a bearer token cannot have');
    expect(spaced.err).not.toContain('with a space');
  });

  it('--token-file: a missing, unreadable, empty or (off loopback) short file, a directory, and both token flags are usage errors naming the file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'council-serve-token-'));
    const missing = await cli(['serve', '--token-file', join(dir, 'nope')]);
    expect(missing.code).toBe(2);
    expect(missing.err).toContain(`--token-file ${join(dir, 'nope')} does not exist`);
    const directory = await cli(['serve', '--token-file', dir]);
    expect(directory.code).toBe(2);
    expect(directory.err).toContain(`--token-file ${dir} is a directory`);
    writeFileSync(join(dir, 'empty'), '\n');
    const empty = await cli(['serve', '--token-file', join(dir, 'empty')]);
    expect(empty.code).toBe(2);
    expect(empty.err).toContain(`--token-file ${join(dir, 'empty')} is empty`);
    // 31 characters and echo's newline: the newline is no part of the token.
    writeFileSync(join(dir, 'short'), `${token32.slice(1)}\n`);
    const short = await cli(['serve', '--host', '192.0.2.1', '--token-file', join(dir, 'short')]);
    expect(short.code).toBe(2);
    expect(short.err).toContain(`the token from --token-file ${join(dir, 'short')} has 31 characters`);
    expect(short.err).not.toContain(token32.slice(1));
    writeFileSync(join(dir, 'spaced'), 'with a space\n');
    const spaced = await cli(['serve', '--token-file', join(dir, 'spaced')]);
    expect(spaced.code).toBe(2);
    expect(spaced.err).toContain(
      `The token from --token-file ${join(dir, 'spaced')} holds a character a bearer token cannot have`,
    );
    const both = await cli(['serve', '--token', token32, '--token-file', join(dir, 'short')]);
    expect(both.code).toBe(2);
    expect(both.err).toContain('--token and --token-file both give the token');
    if (process.getuid?.() !== 0) {
      writeFileSync(join(dir, 'secret'), token32, { mode: 0o000 });
      const unreadable = await cli(['serve', '--token-file', join(dir, 'secret')]);
      expect(unreadable.code).toBe(2);
      expect(unreadable.err).toContain(`--token-file ${join(dir, 'secret')} is not readable by you`);
    }
  });

  it('lists serve in the help', async () => {
    const help = await cli(['--help']);
    expect(help.out).toMatch(/\bserve\b.*browser/);
  });
});

describe('council serve: a launch (issue 16)', () => {
  it('prints the URL with the token in the fragment, serves the page and the API, and on stop cancels a running session and exits 0', async () => {
    const home = mkdtempSync(join(tmpdir(), 'council-serve-cmd-'));
    const t = testContext({
      env: { OPENROUTER_BASE_URL: provider.url, OPENROUTER_API_KEY: KEY, LLM_COUNCIL_BIAS_PERSISTENCE: 'true' },
      home,
    });
    const { server, stop, exit } = await launch({}, t.ctx);
    const printed = /^Council is serving at (http:\/\/127\.0\.0\.1:(\d+))\/#token=([\w-]+)\n$/.exec(t.out());
    expect(printed).not.toBeNull();
    expect(Number(printed![2])).toBe(server.port);
    const token = printed![3]!;
    // 24 random bytes in base64url: 32 characters.
    expect(token).toHaveLength(32);
    const client = createServeClient({ url: server.url, token });
    const page = await client.request('/', { headers: { authorization: '' } });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(configResponseSchema.parse((await client.get('/api/config')).json()).demo).toBe(false);
    // test/hang never answers: the session is still running when the server stops.
    const id = await client.start({ query: 'QUERY-NOT-IN-LOG-4d1e', members: [...MEMBERS, 'test/hang'] });
    // Stop once the stream is open (a request still on its way when the server stops listening is refused).
    const events = client.events(id, { onEvent: (e) => e.id === 1 && stop('SIGTERM') });
    expect(await exit).toBe(0);
    expect((await events).slice(-2).map((e) => e.type)).toEqual(['cancelled', 'done']);
    expect(t.err()).toContain(
      'council serve: SIGTERM: stopping, cancelling 1 running session (nothing of them is saved)',
    );
    expect(t.err()).toContain(`session run ${id}: cancelled`);
    expect(t.err()).not.toContain('QUERY-NOT-IN-LOG');
    expect(existsSync(join(home, 'history.jsonl'))).toBe(false);
    // It no longer listens.
    await expect(fetch(`${server.url}/`)).rejects.toThrow();
  }, 30_000);

  it('--token-file: the file’s token (its newline trimmed, a path relative to the working directory) is the one the API takes, and it is printed nowhere', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'council-serve-token-ok-'));
    writeFileSync(join(dir, 'token'), `${token32}\n`);
    const t = testContext({ env: { OPENROUTER_BASE_URL: provider.url, OPENROUTER_API_KEY: KEY }, home: dir, cwd: dir });
    const { server, stop, exit } = await launch({ tokenFile: 'token', open: true }, t.ctx);
    try {
      expect(t.out()).toBe(`Council is serving at ${server.url}/ (open ${server.url}/#token=<the token in token>)\n`);
      expect(t.err()).toContain('note: --open with --token-file does not open a browser');
      expect((await createServeClient({ url: server.url, token: token32 }).get('/api/config')).status).toBe(200);
      expect((await createServeClient({ url: server.url, token: token32.slice(1) }).get('/api/config')).status).toBe(
        401,
      );
      expect(t.out() + t.err()).not.toContain(token32);
    } finally {
      stop('SIGTERM');
      expect(await exit).toBe(0);
    }
  }, 30_000);

  it('--demo starts an empty home with council demo’s 41 sessions, runs the simulated personas offline and saves their sessions, which the history and leaderboard then show', async () => {
    const home = mkdtempSync(join(tmpdir(), 'council-serve-demo-test-'));
    const t = testContext({ env: {}, home });
    const { server, stop, exit } = await launch({ demo: true, token: token32 }, t.ctx);
    try {
      const client = createServeClient({ url: server.url, token: token32 });
      const config = configResponseSchema.parse((await client.get('/api/config')).json());
      expect(config).toMatchObject({
        demo: true,
        members: [...DEMO_MEMBERS],
        chairman: DEMO_MEMBERS[0],
        persist: { consent: 1, biasRecords: true },
      });
      for (const query of ['How should a small team start testing?', 'What is a sensible backup strategy?']) {
        const events = await client.events(await client.start({ query }));
        expect(events.at(-1)!.data).toEqual({ status: 'finished' });
        expect(events.filter((e) => e.type === 'answer')).toHaveLength(DEMO_MEMBERS.length);
      }
      // council demo's first session and its 40 more (DEMO_SESSIONS), then the two run here.
      const list = sessionListSchema.parse((await client.get('/api/sessions?limit=100')).json());
      expect(list.sessions).toHaveLength(41 + 2);
      expect(list.sessions[0]!.members).toEqual([...DEMO_MEMBERS]);
      expect(((await client.get('/api/leaderboard')).json() as { sessions: number }).sessions).toBe(41 + 2);
      expect(readFileSync(join(home, 'bias_metrics.jsonl'), 'utf8').trim().split('\n').length).toBeGreaterThan(0);
      expect(t.err()).toContain(`sessions are saved in ${home}`);
      expect(t.err()).toContain('demo: 41 simulated sessions of council demo saved there first');
      // A given token is not printed.
      expect(t.out()).not.toContain(token32);
    } finally {
      stop('test over');
      await exit;
    }
  }, 60_000);

  it('--demo adds nothing to a home that already holds sessions (a bias store with a line in it)', async () => {
    const home = mkdtempSync(join(tmpdir(), 'council-serve-demo-kept-'));
    writeFileSync(join(home, 'bias_metrics.jsonl'), 'not a record\n');
    const t = testContext({ env: {}, home });
    const { server, stop, exit } = await launch({ demo: true, token: token32 }, t.ctx);
    try {
      const client = createServeClient({ url: server.url, token: token32 });
      expect(sessionListSchema.parse((await client.get('/api/sessions')).json()).sessions).toHaveLength(0);
      expect(existsSync(join(home, 'history.jsonl'))).toBe(false);
      expect(readFileSync(join(home, 'bias_metrics.jsonl'), 'utf8')).toBe('not a record\n');
      expect(t.err()).toContain('demo: the home already holds sessions, so none were added');
    } finally {
      stop('test over');
      await exit;
    }
  }, 30_000);

  it.skipIf(process.platform !== 'linux')(
    '--open runs xdg-open with the URL; a missing opener is a note, not an error',
    async () => {
      const bin = mkdtempSync(join(tmpdir(), 'council-serve-open-'));
      const record = join(bin, 'opened.txt');
      writeFileSync(join(bin, 'xdg-open'), `#!/bin/sh\necho "$1" > ${record}\n`);
      chmodSync(join(bin, 'xdg-open'), 0o755);
      const t = testContext({
        env: { PATH: bin, OPENROUTER_API_KEY: KEY },
        home: mkdtempSync(join(tmpdir(), 'council-serve-open-home-')),
      });
      const first = await launch({ open: true }, t.ctx);
      for (let i = 0; i < 100 && !existsSync(record); i++) await new Promise((resolve) => setTimeout(resolve, 20));
      first.stop('test over');
      expect(await first.exit).toBe(0);
      const url = /Council is serving at (\S+)/.exec(t.out())![1]!;
      expect(readFileSync(record, 'utf8').trim()).toBe(url);

      const none = testContext({
        env: { PATH: join(bin, 'nothing-here') },
        home: mkdtempSync(join(tmpdir(), 'council-serve-open-home-')),
      });
      const second = await launch({ open: true }, none.ctx);
      for (let i = 0; i < 100 && !none.err().includes('note:'); i++)
        await new Promise((resolve) => setTimeout(resolve, 20));
      second.stop('test over');
      expect(await second.exit).toBe(0);
      expect(none.err()).toContain(
        'note: could not open a browser (xdg-open is not installed): open the URL above yourself.',
      );
    },
    30_000,
  );
});
