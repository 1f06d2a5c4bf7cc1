import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createOpenApiDocument, openApiDocumentText } from './openapi-document.js';

const checkedIn = readFileSync(new URL('../../docs/telemetry-ingest-openapi.json', import.meta.url), 'utf8');

describe('telemetry-ingest-openapi.json', () => {
  it('matches the zod schemas', () => {
    const fresh = openApiDocumentText();
    if (fresh !== checkedIn) {
      expect.fail(
        'packages/cli/docs/telemetry-ingest-openapi.json is out of date with the zod schemas. Regenerate it with `pnpm --filter @council/cli generate:openapi` and commit the result.',
      );
    }
  });

  it('describes POST /v1/events as ADR-018 and issue 9 set it out', () => {
    const doc = createOpenApiDocument() as {
      openapi: string;
      paths: Record<
        string,
        {
          post: {
            description: string;
            parameters: { name: string; required: boolean }[];
            responses: Record<string, unknown>;
          };
        }
      >;
      components: {
        schemas: Record<
          string,
          { properties: Record<string, { maxItems?: number; $ref?: string; items?: { $ref?: string } }> }
        >;
        securitySchemes: Record<string, { scheme: string }>;
      };
    };
    expect(doc.openapi).toBe('3.1.0');
    const post = doc.paths['/v1/events']!.post;
    expect(Object.keys(post.responses)).toEqual(
      expect.arrayContaining(['200', '400', '401', '403', '408', '429', '4XX', '5XX']),
    );
    expect(doc.components.securitySchemes.bearerAuth!.scheme).toBe('bearer');
    const request = doc.components.schemas.IngestRequest!.properties.events!;
    expect(request.maxItems).toBe(100);
    expect(request.items?.$ref).toBe('#/components/schemas/TelemetryEvent');
    const event = Object.keys(doc.components.schemas.TelemetryEvent!.properties);
    for (const field of [
      'schema_version',
      'event_id',
      'session_id',
      'consent_level',
      'rankings',
      'bias_indicators',
      'query_metadata',
      'query_hash',
    ])
      expect(event).toContain(field);
    expect(event).not.toContain('query');
  });

  it('makes each event_id its idempotency key, lists duplicates in a 2xx and refusals by name in a 4xx (issue 27)', () => {
    const doc = createOpenApiDocument() as {
      paths: Record<string, { post: { description: string; parameters: { name: string }[] } }>;
      components: {
        schemas: Record<
          string,
          {
            description?: string;
            properties: Record<
              string,
              { description?: string; type?: string; items?: { $ref?: string; type?: string } }
            >;
          }
        >;
      };
    };
    const post = doc.paths['/v1/events']!.post;
    // no batch-wide key: it could not recognise an event sent again in a batch of another size
    expect(post.parameters.map((p) => p.name)).not.toContain('Idempotency-Key');
    expect(post.description).toContain("each event's event_id");
    const { schemas } = doc.components;
    expect(schemas.TelemetryEvent!.properties.event_id!.description).toContain('idempotency key');
    expect(schemas.IngestResponse!.properties.duplicates).toEqual({ type: 'array', items: { type: 'string' } });
    expect(schemas.IngestError!.properties.rejected!.items!.$ref).toBe('#/components/schemas/IngestRejection');
  });

  it('carries the consent rule: a level-2 event may not hold bias_indicators, query_metadata or query_hash; level 3 not query_hash', () => {
    const schemas = (createOpenApiDocument() as { components: { schemas: Record<string, { allOf?: unknown[] }> } })
      .components.schemas;
    expect(schemas.TelemetryEvent!.allOf).toEqual([
      {
        if: { properties: { consent_level: { const: 2 } } },
        then: {
          not: {
            anyOf: [{ required: ['bias_indicators'] }, { required: ['query_metadata'] }, { required: ['query_hash'] }],
          },
        },
      },
      { if: { properties: { consent_level: { const: 3 } } }, then: { not: { required: ['query_hash'] } } },
    ]);
  });
});
