import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { EvalReport } from '../eval/compute-eval-report.js';
import { runCli } from '../run-cli.js';
import { captureIo, testContext } from '../testing/capture-io.js';
import { evalListResponseSchema, evalReportResponseSchema } from './eval-api-schemas.js';
import { serveCouncil } from './serve-council.js';
import { createServeClient } from './serve-test-client.js';

const example = resolve(import.meta.dirname, '../../../../examples/eval/questions.jsonl');
const TOKEN = 'serve-evals-test-token-0123456789abcdef';

async function evalDemo(home: string, args: string[] = []) {
  const c = captureIo();
  const code = await runCli(['eval', example, '--demo', '--home', home, '--json', '--bootstrap', '100', ...args], {
    version: '1.2.3',
    io: c.io,
    env: {},
    cwd: home,
  });
  expect(code, c.err()).toBe(0);
  return { report: JSON.parse(c.out()) as EvalReport, err: c.err() };
}

async function serve(home: string) {
  const server = await serveCouncil({
    ctx: { ...testContext({ env: {}, home }).ctx, now: () => new Date() },
    host: '127.0.0.1',
    port: 0,
    token: TOKEN,
    demo: false,
    assets: null,
    log: () => undefined,
  });
  return { server, client: createServeClient({ url: server.url, token: TOKEN }) };
}

describe('serve /api/evals: the eval runs saved in the home (issue 31)', () => {
  it('lists a council eval run and serves its report as `council eval --json` printed it', async () => {
    const home = mkdtempSync(join(tmpdir(), 'council-serve-evals-'));
    const { report, err } = await evalDemo(home);
    expect(err).toContain(`Report saved for the dashboard (council serve): ${join(home, 'evals')}`);
    const { server, client } = await serve(home);
    try {
      const list = await client.get('/api/evals');
      expect(list.status).toBe(200);
      const { evals } = evalListResponseSchema.parse(list.json());
      expect(evals).toHaveLength(1);
      expect(evals[0]).toMatchObject({
        journal: 'questions.jsonl.eval.jsonl',
        demo: true,
        items: report.items,
        members: report.members.map((m) => m.member),
        generatedAt: report.generatedAt,
      });
      expect(evals[0]!.id).toMatch(/^[0-9a-f]{12}$/);
      const one = await client.get(`/api/evals/${evals[0]!.id}`);
      expect(one.status).toBe(200);
      expect(evalReportResponseSchema.safeParse(one.json()).success).toBe(true);
      expect(one.json()).toEqual(report);

      const missing = await client.get('/api/evals/0123456789ab');
      expect(missing.status).toBe(404);
      expect((missing.json() as { error: { code: string } }).error.code).toBe('NOT_FOUND');
      expect((await client.get('/api/evals/..%2F..%2Fhistory')).status).toBe(404);
      // The token is asked for, as on every /api route.
      const anonymous = await fetch(`${server.url}/api/evals`);
      expect(anonymous.status).toBe(401);
    } finally {
      await server.close();
    }
  }, 60_000);

  it('a resumed run replaces its own report; another journal is another run; --no-persist saves none; a stray file is skipped', async () => {
    const home = mkdtempSync(join(tmpdir(), 'council-serve-evals-'));
    await evalDemo(home);
    await evalDemo(home, ['--resume']);
    await evalDemo(home, ['--output', join(home, 'second.eval.jsonl')]);
    await evalDemo(home, ['--output', join(home, 'third.eval.jsonl'), '--no-persist']);
    writeFileSync(join(home, 'evals', 'notes.json'), '{}');
    writeFileSync(join(home, 'evals', 'abcdefabcdef.json'), '{"kind":"something-else"}');
    const { server, client } = await serve(home);
    try {
      const { evals } = evalListResponseSchema.parse((await client.get('/api/evals')).json());
      expect(evals.map((e) => e.journal).sort()).toEqual(['questions.jsonl.eval.jsonl', 'second.eval.jsonl']);
    } finally {
      await server.close();
    }
  }, 60_000);

  it('a home with no eval runs lists none', async () => {
    const { server, client } = await serve(mkdtempSync(join(tmpdir(), 'council-serve-evals-')));
    try {
      expect((await client.get('/api/evals')).json()).toEqual({ evals: [] });
    } finally {
      await server.close();
    }
  }, 30_000);
});
