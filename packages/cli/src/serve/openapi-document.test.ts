import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { testContext } from '../testing/capture-io.js';
import { createServeApp } from './create-serve-app.js';
import { createServeOpenApiDocument } from './openapi-document.js';
import { createSessionHub } from './session-hub.js';

interface Doc {
  openapi: string;
  paths: Record<string, Record<string, { parameters?: { name: string }[] }>>;
  components: {
    schemas: Record<
      string,
      {
        required?: string[];
        properties?: Record<string, { maxLength?: number; enum?: string[] }>;
        additionalProperties?: unknown;
      }
    >;
  };
}

describe('the OpenAPI document of council serve (issue 16)', () => {
  const doc = createServeOpenApiDocument() as unknown as Doc;

  it('describes every /api route the app serves, and nothing else', () => {
    const { ctx } = testContext({ home: mkdtempSync(join(tmpdir(), 'council-openapi-')) });
    const app = createServeApp({
      hub: createSessionHub({ ctx, log: () => undefined }),
      ctx,
      host: '127.0.0.1',
      port: () => 1,
      token: 't',
      demo: false,
      assets: null,
      log: () => undefined,
    });
    const served = app.routes
      .filter((r) => r.path.startsWith('/api/') && r.method !== 'ALL')
      .map((r) => `${r.method.toLowerCase()} ${r.path.replace(/:(\w+)/g, '{$1}')}`);
    const documented = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.keys(ops).map((method) => `${method} ${path}`),
    );
    expect(new Set(documented)).toEqual(new Set(served));
    expect(doc.openapi).toBe('3.1.0');
  });

  it('carries the request schema’s rules: query required, 1..100,000 characters; no other field; the two modes', () => {
    const request = doc.components.schemas.SessionRequest!;
    expect(request.required).toEqual(['query']);
    expect(request.properties!.query!.maxLength).toBe(100_000);
    expect(request.additionalProperties).toBe(false);
    expect(request.properties!.mode!.enum).toEqual(['consensus', 'voting']);
    expect(doc.paths['/api/sessions']!.get!.parameters!.map((p) => p.name)).toEqual([
      'model',
      'from',
      'to',
      'limit',
      'before',
      'q',
    ]);
  });

  it('has a data schema for every event type of the contract', () => {
    const types = [
      'stage-started',
      'stage-finished',
      'model-started',
      'model-queued',
      'model-dispatched',
      'model-finished',
      'model-failed',
      'model-retried',
      'usage',
      'answer',
      'review',
      'synthesis-text',
      'session',
      'error',
      'cancelled',
      'done',
    ];
    expect(
      Object.keys(doc.components.schemas)
        .filter((n) => n.startsWith('StreamEvent_'))
        .sort(),
    ).toEqual(types.map((t) => `StreamEvent_${t}`).sort());
  });

  it('a session document says whether it was complete and what it lacks (issue 26), as the session event and GET /api/sessions/{id} carry it', () => {
    const session = doc.components.schemas.SessionResponse!.properties!.session as unknown as {
      required: string[];
      properties: Record<string, { type?: string; items?: { enum?: string[] } }>;
    };
    expect(session.required).toEqual(expect.arrayContaining(['complete', 'shortfalls']));
    expect(session.properties['complete']!.type).toBe('boolean');
    expect(session.properties['shortfalls']!.items!.enum).toEqual(['no-synthesis', 'not-ranked', 'no-review-read']);
  });
});
