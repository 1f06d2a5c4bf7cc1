import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../run-cli.js';
import { captureIo } from '../testing/capture-io.js';
import { writePlantedStore } from '../testing/write-bias-records.js';

async function run(argv: string[], cwd: string) {
  const c = captureIo();
  const code = await runCli(argv, { version: '1.0.0', io: c.io, env: {}, cwd });
  return { code, out: c.out(), err: c.err() };
}

describe('--json wherever a JSON output exists (issue 15 item 12)', () => {
  it('bias-report --json prints what --format json prints', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'council-json-'));
    const path = join(dir, 'bias_metrics.jsonl');
    await writePlantedStore(path, { sessions: 12 });
    const viaJson = await run(['bias-report', '--input', path, '--now', '2026-11-05T00:00:00Z', '--json'], dir);
    expect(viaJson.code).toBe(0);
    const viaFormat = await run(
      ['bias-report', '--input', path, '--now', '2026-11-05T00:00:00Z', '--format', 'json'],
      dir,
    );
    const strip = (text: string) => ({ ...(JSON.parse(text) as Record<string, unknown>), generatedAt: null });
    expect(strip(viaJson.out)).toEqual(strip(viaFormat.out));
    // 12 sessions of the planted store, 16 records each.
    expect(JSON.parse(viaJson.out)).toMatchObject({ kind: 'council-bias-report', input: { records: 192 } });
    expect(await run(['bias-report', '--input', path, '--json', '--format', 'csv'], dir)).toEqual({
      code: 2,
      out: '',
      err: 'council: --json asks for JSON but --format asks for csv; give one of them.\n',
    });
  });

  it('demo --json prints one JSON document and no text on stdout', async () => {
    const home = mkdtempSync(join(tmpdir(), 'council-demo-json-'));
    const r = await run(['demo', '--home', home, '--sessions', '10', '--json'], tmpdir());
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.out) as {
      kind: string;
      home: string;
      htmlReport: string;
      sessions: number;
      firstSession: { members: unknown };
      biasReport: { kind: string; report: { window: { sessions: number } } };
    };
    // The visible session and the 10 asked for.
    expect(doc.kind).toBe('council-demo');
    expect(doc.sessions).toBe(11);
    expect(doc.home).toBe(home);
    expect(doc.htmlReport).toBe(join(home, 'bias-report.html'));
    expect(doc.biasReport.kind).toBe('council-bias-report');
    expect(doc.biasReport.report.window.sessions).toBe(11);
    expect(r.out).not.toContain('── Session 1');
  }, 30_000);
});
