import { createHmac } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createJsonlStore, deriveQueryMetadata, hashQuery } from '@council/bias-store';
import type { CouncilSession } from '@council/core';
import { buildTelemetryEvent, runCouncil, telemetryEventSchema } from '@council/core';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runTelemetryCli } from './run-telemetry-cli.js';
import type { IngestTestServer } from './testing/ingest-test-server.js';
import { startIngestTestServer } from './testing/ingest-test-server.js';
import { tempHome } from './testing/temp-home.js';

// The canaries: if either shows up in any byte council-cloud receives (or in the output), the test fails.
const canaryQuery = 'CANARY-QUERY-8e1f: how do I rotate the payroll database password for Jane Doe?';
const canaryApiKey = 'sk-or-v1-CANARY-KEY-3b9d7c';
const hashSecret = 'user-secret-for-tests';
const cloudToken = 'cloud-token-a71e';

type Member = Parameters<typeof runCouncil>[0]['members'] extends readonly (infer M)[] | undefined ? M : never;

/**
 * A scripted model: answers "answer of <id> quality <q>", ranks the answers it is shown by that quality
 * (fenced JSON plus FINAL RANKING, as core's prompt asks), and as chairman credits the best two. It
 * holds the canary key the way a provider would, to show the key cannot reach the event.
 */
function scriptedModel(id: string, quality: number): Member {
  const settings = { apiKey: canaryApiKey };
  return {
    specificationVersion: 'v1',
    provider: 'test',
    modelId: id,
    doGenerate: (options: { messages: readonly { content: string }[] }) => {
      void settings;
      const prompt = options.messages.map((m) => m.content).join('\n');
      let text: string;
      if (/\bcontributors\b/.test(prompt) && /^Model: /m.test(prompt)) {
        text = `Rotate it with a maintenance window.\n\n\`\`\`json\n${JSON.stringify({
          contributors: [
            { id: 'test/alpha', weight: 2, reason: 'clear' },
            { id: 'test/beta', weight: 1, reason: 'safe' },
          ],
        })}\n\`\`\``;
      } else if (prompt.includes('FINAL RANKING')) {
        const blocks = [...prompt.matchAll(/^<<<\S+ (Response [A-Z]+)>>>\n([\s\S]*?)\n<<<\S+ END>>>$/gm)].map((m) => ({
          label: m[1]!,
          q: Number(/quality (\d+)/.exec(m[2]!)?.[1] ?? 0),
        }));
        const ranked = [...blocks].sort((a, b) => b.q - a.q).map((b) => b.label);
        const scores = Object.fromEntries(blocks.map((b) => [b.label, b.q]));
        text = `\`\`\`json\n${JSON.stringify({ ranking: ranked, scores })}\n\`\`\`\n\nFINAL RANKING:\n${ranked.map((l, i) => `${i + 1}. ${l}`).join('\n')}`;
      } else {
        text = `answer of ${id} quality ${quality}`;
      }
      return Promise.resolve({
        text,
        usage: { inputTokens: 10, outputTokens: 5 },
        finishReason: 'stop' as const,
        latencyMs: 1,
      });
    },
  };
}

let session: CouncilSession;
let server: IngestTestServer | undefined;

beforeAll(async () => {
  session = await runCouncil({
    query: canaryQuery,
    members: [scriptedModel('test/alpha', 9), scriptedModel('test/beta', 7), scriptedModel('test/gamma', 5)],
    seed: 7,
    clock: { now: () => Date.parse('2026-11-22T10:30:00Z') },
  });
});

afterEach(async () => {
  await server?.close();
  server = undefined;
});

// ADR-018's unified consent table, written out: what leaves the machine at each level.
const envelope = ['consent_level', 'event_id', 'schema_version', 'session_id', 'timestamp'];
const allowedFields: Record<number, string[] | null> = {
  0: null,
  1: null,
  2: [...envelope, 'rankings'],
  3: [...envelope, 'rankings', 'bias_indicators', 'query_metadata'],
  4: [...envelope, 'rankings', 'bias_indicators', 'query_metadata', 'query_hash'],
};

describe('consent matrix: a real session, the real event builder, the real uploader', () => {
  it.each([0, 1, 2, 3, 4])(
    'consent %i: exactly the allowed fields arrive, and no canary in any byte',
    async (level) => {
      const { home, paths } = tempHome();
      // What the CLI does after a session (consent ≥ 2): build the event and append it to the outbox.
      const event = buildTelemetryEvent(session, level, {
        queryMetadata: deriveQueryMetadata(canaryQuery),
        queryHash: hashQuery({ query: canaryQuery, secret: hashSecret }),
      });
      if (event !== null) await createJsonlStore({ path: paths.outbox, schema: telemetryEventSchema }).append([event]);

      server = await startIngestTestServer({ token: cloudToken });
      const out: string[] = [];
      const io = { stdout: (t: string) => void out.push(t), stderr: (t: string) => void out.push(t) };
      const env = {
        LLM_COUNCIL_HOME: home,
        LLM_COUNCIL_CLOUD_URL: server.url,
        LLM_COUNCIL_CLOUD_TOKEN: cloudToken,
        LLM_COUNCIL_BIAS_CONSENT: String(level),
        LLM_COUNCIL_HASH_SECRET: hashSecret,
        OPENROUTER_API_KEY: canaryApiKey,
      };
      expect(await runTelemetryCli(['upload'], { version: '1.0.0', io, env })).toBe(0);

      const expected = allowedFields[level]!;
      if (expected === null) {
        expect(event).toBeNull();
        expect(existsSync(paths.outbox)).toBe(false);
        expect(server.requests).toHaveLength(0);
      } else {
        expect(server.requests).toHaveLength(1);
        const sent = (JSON.parse(server.requests[0]!.body) as { events: Record<string, unknown>[] }).events;
        expect(sent).toHaveLength(1);
        expect(Object.keys(sent[0]!).sort()).toEqual([...expected].sort());
        expect(sent[0]!.consent_level).toBe(level);
        expect(sent[0]!.session_id).toBe(session.sessionId);
        // Rankings by quality, worked out by hand: alpha (9) > beta (7) > gamma (5).
        expect(
          (sent[0]!.rankings as { model: string; final_rank: number }[]).map((r) => [r.model, r.final_rank]),
        ).toEqual([
          ['test/alpha', 1],
          ['test/beta', 2],
          ['test/gamma', 3],
        ]);
        if (level === 4) {
          // ADR-018: HMAC-SHA256(secret, first 100 characters), first 16 hex characters.
          expect(sent[0]!.query_hash).toBe(
            createHmac('sha256', hashSecret).update(canaryQuery.slice(0, 100)).digest('hex').slice(0, 16),
          );
        }
      }

      const received = server.receivedBytes().toString('latin1');
      for (const canary of [
        canaryQuery,
        canaryQuery.slice(0, 20),
        'payroll database password',
        'Jane Doe',
        canaryApiKey,
        'CANARY',
      ]) {
        expect(received.includes(canary), `server bytes contain ${canary}`).toBe(false);
        expect(out.join('').includes(canary), `output contains ${canary}`).toBe(false);
      }
      expect(out.join('')).not.toContain(cloudToken);
      if (existsSync(paths.outbox)) expect(readFileSync(paths.outbox, 'latin1')).not.toContain('CANARY');
    },
  );
});
