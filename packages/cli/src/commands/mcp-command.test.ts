// `council mcp`'s flags: which tokens and hosts `--http` accepts, before anything is bound.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../run-cli.js';
import { captureIo } from '../testing/capture-io.js';

// 31 and 32 characters, counted by hand: 'abcdefghij' ×3 is 30, plus 'k' / 'kl'.
const token31 = 'abcdefghijabcdefghijabcdefghijk';
const token32 = 'abcdefghijabcdefghijabcdefghijkl';

async function run(argv: string[], env: Record<string, string> = {}) {
  const c = captureIo();
  const code = await runCli(argv, {
    version: '1.0.0',
    io: c.io,
    env: { LLM_COUNCIL_HOME: '/nonexistent/council-home', ...env },
    cwd: '/tmp',
  });
  return { code, err: c.err() };
}

describe('council mcp --http: the token', () => {
  it('refuses a token shorter than 32 characters on a host other machines reach, wherever it comes from', async () => {
    const flag = await run(['mcp', '--http', '--host', '192.0.2.1', '--token', token31]);
    expect(flag.code).toBe(2);
    expect(flag.err).toMatch(
      /--host 192\.0\.2\.1 is reachable from other machines, and the token from --token has 31 characters: give one of at least 32/,
    );
    const fromEnv = await run(['mcp', '--http', '--host', '192.0.2.1'], { LLM_COUNCIL_MCP_TOKEN: token31 });
    expect(fromEnv.code).toBe(2);
    expect(fromEnv.err).toMatch(/the token from LLM_COUNCIL_MCP_TOKEN has 31 characters/);
    const file = join(mkdtempSync(join(tmpdir(), 'council-mcp-token-')), 'token');
    writeFileSync(file, `${token31}\n`);
    const fromFile = await run(['mcp', '--http', '--host', '192.0.2.1', '--token-file', file]);
    expect(fromFile.code).toBe(2);
    expect(fromFile.err).toContain(`the token from --token-file ${file} has 31 characters`);
    expect((await run(['mcp', '--http', '--host', '192.0.2.1'])).err).toMatch(
      /give a token of at least 32 characters \(LLM_COUNCIL_MCP_TOKEN, --token-file or --token\)/,
    );
  });

  it('takes a 32-character token from the environment or a file: it gets as far as binding the address', async () => {
    // 192.0.2.1 (TEST-NET-1) is no interface of this machine: the bind fails, after every token check passed.
    const fromEnv = await run(['mcp', '--http', '--host', '192.0.2.1'], { LLM_COUNCIL_MCP_TOKEN: token32 });
    expect(fromEnv.err).not.toMatch(/token/);
    expect(fromEnv.code).toBe(1);
    const file = join(mkdtempSync(join(tmpdir(), 'council-mcp-token-')), 'token');
    writeFileSync(file, `${token32}\n`);
    const fromFile = await run(['mcp', '--http', '--host', '192.0.2.1', '--token-file', file]);
    expect(fromFile.err).not.toMatch(/token/);
    expect(fromFile.code).toBe(1);
  });

  it('refuses a token with white space, which no "Authorization: Bearer" header could carry, even on loopback', async () => {
    const r = await run(['mcp', '--http', '--token', `${token32} x`]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/The token from --token holds a character a bearer token cannot have/);
    expect(r.err).not.toContain(token32);
    expect(
      (
        await run(['mcp', '--http', '--host', '192.0.2.1'], {
          LLM_COUNCIL_MCP_TOKEN: `abcdefghij\tabcdefghijabcdefghijkl`,
        })
      ).code,
    ).toBe(2);
  });

  it('refuses --token together with --token-file', async () => {
    expect(await run(['mcp', '--http', '--token', token32, '--token-file', '/tmp/x'])).toEqual({
      code: 2,
      err: 'council: --token and --token-file both give the token: give one of them.\n',
    });
  });
});

describe('council mcp --http: the host', () => {
  it('refuses a wildcard bind, which no client could address, with a token or without', async () => {
    for (const host of ['0.0.0.0', '::', '0:0::0']) {
      const r = await run(['mcp', '--http', '--host', host, '--token', token32]);
      expect(r.code).toBe(2);
      expect(r.err).toContain(`--host ${host} binds every interface`);
      expect(r.err).toContain('give the one address clients use');
    }
  });
});

describe('council mcp: flags as typed', () => {
  it('gives --token 0123… (32 digits) through the whole parser unchanged: it passes the length check', async () => {
    const digits = '01234567890123456789012345678901';
    const r = await run(['mcp', '--http', '--host', '192.0.2.1', '--token', digits]);
    expect(r.err).not.toMatch(/token/);
    expect(r.code).toBe(1);
  });

  it('says --port, --host, --token and --token-file need --http instead of ignoring them', async () => {
    expect(await run(['mcp', '--port', '8765'])).toEqual({
      code: 2,
      err: 'council: --port needs --http: without it council mcp serves stdio, which has no port, host or token.\n',
    });
    expect((await run(['mcp', '--host', '127.0.0.1'])).err).toMatch(/^council: --host needs --http/);
    expect((await run(['mcp', '--token', token32])).err).toMatch(/^council: --token needs --http/);
    expect((await run(['mcp', '--token-file', '/tmp/x'])).err).toMatch(/^council: --token-file needs --http/);
  });
});
