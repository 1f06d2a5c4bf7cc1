import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { testContext } from '../testing/capture-io.js';
import { writePlantedStore } from '../testing/write-bias-records.js';
import { biasReportResponseSchema } from './api-schemas.js';
import { serveCouncil } from './serve-council.js';
import { createServeClient } from './serve-test-client.js';

// Issue 30 (a wording fault noticed): /api/bias-report?since= is a date bound, passed through as given, not turned
// into a fractional number of days before the server's clock. Through the real server on 127.0.0.1.

const TOKEN = 'serve-bias-since-test-token-0123456789ab';

describe('GET /api/bias-report?since=', () => {
  it('keeps the records at or after that time, and the report says so (no fractional day count)', async () => {
    const home = mkdtempSync(join(tmpdir(), 'council-serve-bias-since-'));
    // Twelve sessions an hour apart from 2026-11-01T00:00Z (sessions 0 to 11).
    await writePlantedStore(join(home, 'bias_metrics.jsonl'), { sessions: 12, start: '2026-11-01T00:00:00Z' });
    const ctx = testContext({ env: {}, home }).ctx;
    const server = await serveCouncil({
      ctx: { ...ctx, now: () => new Date('2026-11-20T00:00:00Z') },
      host: '127.0.0.1',
      port: 0,
      token: TOKEN,
      demo: false,
      assets: null,
      log: () => undefined,
    });
    try {
      const client = createServeClient({ url: server.url, token: TOKEN });
      const read = async (query: string) => {
        const r = await client.get(`/api/bias-report${query}`);
        expect(r.status, r.text).toBe(200);
        return biasReportResponseSchema.parse(r.json()) as unknown as {
          options: { maxDays: number | null; since: string | null; maxSessions: number };
          report: { window: { sessions: number; start: string | null } };
        };
      };
      // From session 5 (05:00, on the bound: kept) to session 11: seven sessions.
      const bound = await read('?since=2026-11-01T05:00:00Z');
      expect(bound.options.since).toBe('2026-11-01T05:00:00.000Z');
      expect(bound.options.maxDays).toBeNull();
      expect(bound.report.window.sessions).toBe(7);
      expect(bound.report.window.start).toBe('2026-11-01T05:00:00.000Z');
      // A date alone is its midnight (UTC): all twelve.
      const day = await read('?since=2026-11-01');
      expect(day.options.since).toBe('2026-11-01T00:00:00.000Z');
      expect(day.report.window.sessions).toBe(12);
      // With last= too, both bounds apply: the last 3 of those seven.
      const both = await read('?since=2026-11-01T05:00:00Z&last=3');
      expect(both.options.maxSessions).toBe(3);
      expect(both.report.window.sessions).toBe(3);
      // Without since, the default window (30 days) and no date bound.
      const plain = await read('');
      expect(plain.options).toMatchObject({ maxDays: 30, since: null });
      expect(plain.report.window.sessions).toBe(12);
    } finally {
      await server.close();
    }
  });
});
