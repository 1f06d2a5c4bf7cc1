import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testContext } from '../testing/capture-io.js';
import { runDoctorChecks, runDoctorCommand } from './doctor-command.js';

const requests: { url: string; authorization: string | undefined }[] = [];
const server = createServer((req, res) => {
  requests.push({ url: req.url ?? '', authorization: req.headers.authorization });
  res.writeHead(200, { 'content-type': 'application/json' }).end('{"data":[]}');
});
let baseUrl = '';

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function home(): string {
  return mkdtempSync(join(tmpdir(), 'council-doctor-'));
}

describe('council doctor', () => {
  it('probes a configured provider on its base URL without sending the key, and never prints the key', async () => {
    const canary = 'sk-or-v1-DOCTOR-CANARY';
    const t = testContext({ home: home(), env: { OPENROUTER_API_KEY: canary, OPENROUTER_BASE_URL: baseUrl } });
    const code = await runDoctorCommand({}, t.ctx);
    expect(code).toBe(0);
    expect(requests.at(-1)).toEqual({ url: '/api/v1/models', authorization: undefined });
    expect(t.out()).toMatch(/openrouter reachable\s+│ ok\s+│ http:\/\/127\.0\.0\.1:\d+\/api\/v1\/models: HTTP 200/);
    expect(t.out()).not.toContain(canary);
    expect(t.out()).toContain('Everything needed is in place.');
  });

  it('fails with exit 1 when a configured provider cannot be reached, and says which variable to check', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const t = testContext({
      home: home(),
      env: { OPENROUTER_API_KEY: 'k', OPENROUTER_BASE_URL: `http://127.0.0.1:${port}` },
    });
    const code = await runDoctorCommand({ json: true }, t.ctx);
    expect(code).toBe(1);
    const doc = JSON.parse(t.out()) as { ok: boolean; checks: { check: string; status: string; detail: string }[] };
    expect(doc.ok).toBe(false);
    const probe = doc.checks.find((c) => c.check === 'openrouter reachable');
    expect(probe?.status).toBe('fail');
    expect(probe?.detail).toMatch(/ECONNREFUSED; check OPENROUTER_BASE_URL/);
  });

  it("makes no request at all when no provider is configured, and says what to set: a key or a local server's address", async () => {
    const before = requests.length;
    const t = testContext({ home: home(), env: {} });
    expect(await runDoctorCommand({}, t.ctx)).toBe(0);
    const checks = await runDoctorChecks({}, t.ctx);
    expect(requests.length).toBe(before);
    expect(checks.find((c) => c.check === 'OPENROUTER_API_KEY')).toEqual({
      check: 'OPENROUTER_API_KEY',
      status: 'skip',
      detail: 'absent',
    });
    const verdict = checks.find((c) => c.check === 'providers')!;
    expect(verdict.status).toBe('warn');
    expect(verdict.detail).toMatch(
      /^no provider is set up: set a hosted provider's key \(OPENROUTER_API_KEY, OPENAI_API_KEY, ANTHROPIC_API_KEY or GEMINI_API_KEY\/GOOGLE_API_KEY\) or the address of a running local server \(/,
    );
    for (const variable of ['OLLAMA_BASE_URL', 'VLLM_BASE_URL', 'LMSTUDIO_BASE_URL'])
      expect(verdict.detail).toContain(variable);
    expect(verdict.detail).toMatch(/; no key needed\)\. Until then only `council demo` \(simulated\) runs$/);
    // The last line does not claim everything is in place.
    expect(t.out()).toContain('Nothing failed, but no model provider can run a council yet: see "providers".\n');
    expect(t.out()).not.toContain('Everything needed is in place.');
  });

  it('a keyless vLLM server that answers is a provider that can run: the verdict names it, with no word of a missing key', async () => {
    const before = requests.length;
    const t = testContext({ home: home(), env: { VLLM_BASE_URL: baseUrl } });
    expect(await runDoctorCommand({ json: true }, t.ctx)).toBe(0);
    const doc = JSON.parse(t.out()) as { ok: boolean; checks: { check: string; status: string; detail: string }[] };
    // Probed once, on its /models, without a key.
    expect(requests.slice(before)).toEqual([{ url: '/api/v1/models', authorization: undefined }]);
    expect(doc.checks.find((c) => c.check === 'vllm reachable')).toMatchObject({
      status: 'ok',
      detail: expect.stringMatching(/\/api\/v1\/models: HTTP 200 in \d+ ms$/) as string,
    });
    expect(doc.checks.find((c) => c.check === 'providers')).toEqual({
      check: 'providers',
      status: 'ok',
      detail: `can run a council: vllm at ${baseUrl} (no key needed)`,
    });
    expect(JSON.stringify(doc)).not.toMatch(/no provider key|only `council demo`/);
    const text = testContext({ home: home(), env: { VLLM_BASE_URL: baseUrl } });
    await runDoctorCommand({}, text.ctx);
    expect(text.out()).toContain('Everything needed is in place.');
  });

  it('names every provider that can run, a hosted one by name and a local one by its address; with --offline, as set up and not probed', async () => {
    const env = { OPENROUTER_API_KEY: 'k', OPENROUTER_BASE_URL: baseUrl, LMSTUDIO_BASE_URL: `${baseUrl}/` };
    const checks = await runDoctorChecks({}, testContext({ home: home(), env }).ctx);
    expect(checks.find((c) => c.check === 'providers')?.detail).toBe(
      `can run a council: openrouter, lmstudio at ${baseUrl} (no key needed)`,
    );
    const offline = await runDoctorChecks({ offline: true }, testContext({ home: home(), env }).ctx);
    expect(offline.find((c) => c.check === 'providers')).toEqual({
      check: 'providers',
      status: 'ok',
      detail: `set up (not probed: --offline): openrouter, lmstudio at ${baseUrl} (no key needed)`,
    });
  });

  it('a local server that does not answer is no usable provider: its row fails and the verdict says none can run', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const t = testContext({ home: home(), env: { OLLAMA_BASE_URL: `http://127.0.0.1:${port}/v1` } });
    const checks = await runDoctorChecks({}, t.ctx);
    expect(checks.find((c) => c.check === 'ollama reachable')).toMatchObject({
      status: 'fail',
      detail: expect.stringMatching(/ECONNREFUSED; check OLLAMA_BASE_URL/) as string,
    });
    expect(checks.find((c) => c.check === 'providers')).toEqual({
      check: 'providers',
      status: 'warn',
      detail: 'no set-up provider can run a council (ollama: see above); `council demo` runs without one',
    });
  });

  it('a local server that asks for a key: not usable until its key variable is set', async () => {
    const locked = createServer((_req, res) =>
      res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"missing key"}'),
    );
    await new Promise<void>((resolve) => locked.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(locked.address() as AddressInfo).port}/v1`;
    try {
      const without = await runDoctorChecks({}, testContext({ home: home(), env: { VLLM_BASE_URL: url } }).ctx);
      expect(without.find((c) => c.check === 'vllm reachable')).toMatchObject({
        status: 'warn',
        detail: expect.stringMatching(/HTTP 401 in \d+ ms: the server wants a key; set VLLM_API_KEY$/) as string,
      });
      expect(without.find((c) => c.check === 'providers')?.status).toBe('warn');
      const withKey = await runDoctorChecks(
        {},
        testContext({ home: home(), env: { VLLM_BASE_URL: url, VLLM_API_KEY: 'local-secret' } }).ctx,
      );
      expect(withKey.find((c) => c.check === 'vllm reachable')?.status).toBe('ok');
      expect(withKey.find((c) => c.check === 'providers')?.detail).toBe(
        `can run a council: vllm at ${url} (VLLM_API_KEY present)`,
      );
      expect(JSON.stringify(withKey)).not.toContain('local-secret');
    } finally {
      await new Promise<void>((resolve) => locked.close(() => resolve()));
    }
  });

  it('fails consent level 4 without a hash secret, and warns about a secret nothing uses', async () => {
    const a = await runDoctorChecks({}, testContext({ home: home(), env: { LLM_COUNCIL_BIAS_CONSENT: '4' } }).ctx);
    expect(a.find((c) => c.check === 'consent and secret')).toMatchObject({ status: 'fail' });
    const b = await runDoctorChecks({}, testContext({ home: home(), env: { LLM_COUNCIL_HASH_SECRET: 's3cret' } }).ctx);
    const consent = b.find((c) => c.check === 'consent and secret');
    expect(consent?.status).toBe('warn');
    expect(consent?.detail).not.toContain('s3cret');
  });

  it('reports an invalid variable as a failed check instead of stopping', async () => {
    const t = testContext({ home: home(), env: { LLM_COUNCIL_BIAS_WINDOW_DAYS: 'thirty' } });
    expect(await runDoctorCommand({ json: true, offline: true }, t.ctx)).toBe(1);
    const doc = JSON.parse(t.out()) as { checks: { check: string; status: string; detail: string }[] };
    expect(doc.checks[0]).toEqual({
      check: 'environment',
      status: 'fail',
      detail: 'LLM_COUNCIL_BIAS_WINDOW_DAYS="thirty" is not valid: use a whole number ≥ 1. Fix or unset it.',
    });
    expect(doc.checks.find((c) => c.check === 'home directory')?.status).toBe('ok');
  });

  it('counts unreadable lines in the store, and fails a store that is a directory', async () => {
    const h = home();
    // Two objects that are not bias records, and a line that is not JSON.
    writeFileSync(join(h, 'bias_metrics.jsonl'), '{"a":1}\n{"torn":\n{"b":2}\n');
    mkdirSync(join(h, 'history.jsonl'));
    const checks = await runDoctorChecks({ offline: true }, testContext({ home: h }).ctx);
    expect(checks.find((c) => c.check === 'bias store')).toEqual({
      check: 'bias store',
      status: 'warn',
      detail: `3 lines, 3 unreadable (1 invalid_json, 2 invalid_record; first at ${join(h, 'bias_metrics.jsonl')}:1); readers skip them`,
    });
    expect(checks.find((c) => c.check === 'history')?.status).toBe('fail');
  });
});
