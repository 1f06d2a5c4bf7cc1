import packageJson from '../../package.json' with { type: 'json' };
import { omitUndefined } from '../omit-undefined.js';
import { openApiComponentSchemas } from '../openapi-component-schemas.js';
import {
  ingestErrorSchema,
  ingestRejectionSchema,
  ingestRequestSchema,
  ingestResponseSchema,
  maxEventsPerBatch,
} from './ingest-contract.js';
import { minimumTelemetryConsentLevel, telemetryEventSchema, telemetryFieldConsentLevel } from '@council/core';

type JsonObject = Record<string, unknown>;

/** For each sendable consent level below the highest, the fields it must not carry (from core's one rule). */
function consentRules(): JsonObject[] {
  const levels = Object.entries(telemetryFieldConsentLevel);
  const highest = Math.max(...levels.map(([, level]) => level));
  const rules: JsonObject[] = [];
  for (let level = minimumTelemetryConsentLevel; level < highest; level++) {
    const forbidden = levels.filter(([, needs]) => needs > level).map(([field]) => ({ required: [field] }));
    rules.push({
      if: { properties: { consent_level: { const: level } } },
      then: { not: forbidden.length === 1 ? forbidden[0] : { anyOf: forbidden } },
    });
  }
  return rules;
}

/** The component schemas, generated from the zod schemas the uploader validates with. */
function componentSchemas(): Record<string, JsonObject> {
  // The values the uploader sends, as validated (zod's default side, `output`).
  const result = openApiComponentSchemas(
    [
      [telemetryEventSchema, 'TelemetryEvent'],
      [ingestRequestSchema, 'IngestRequest'],
      [ingestRejectionSchema, 'IngestRejection'],
      [ingestResponseSchema, 'IngestResponse'],
      [ingestErrorSchema, 'IngestError'],
    ],
    'output',
  );
  // core's schema enforces the consent rule in a refinement, which JSON Schema output cannot carry;
  // the same rule, derived from core's field levels: fields beyond the event's consent_level are absent.
  const event = result.TelemetryEvent as { properties: Record<string, JsonObject> };
  event.properties.event_id = {
    ...event.properties.event_id,
    description:
      'The idempotency key of the event (ADR-018: a UUID v4, set when the session queued it, never changed by the uploader): council-cloud stores each event_id at most once.',
  };
  result.TelemetryEvent = {
    ...result.TelemetryEvent,
    description:
      'ADR-018 council-cloud event, schema 1.1.0. Fields beyond consent_level are absent: 2 carries rankings; 3 adds bias_indicators and query_metadata; 4 adds query_hash.',
    allOf: consentRules(),
  };
  return result;
}

const errorResponse = (description: string, headers?: JsonObject): JsonObject => ({
  description,
  ...omitUndefined({ headers }),
  content: { 'application/json': { schema: { $ref: '#/components/schemas/IngestError' } } },
});

const retryAfter = {
  'Retry-After': {
    description: 'Delay-seconds or an HTTP-date. The uploader waits at least this long before sending the batch again.',
    schema: { type: 'string' },
  },
};

/**
 * The OpenAPI 3.1 description of council-cloud's ingest endpoint as this uploader uses it. Checked in
 * as `docs/telemetry-ingest-openapi.json`; a test fails when it no longer matches the schemas (`pnpm --filter @council/cli generate:openapi`).
 */
export function createOpenApiDocument(): JsonObject {
  return {
    openapi: '3.1.0',
    info: {
      title: 'council-cloud ingest (as used by council-telemetry)',
      version: packageJson.version,
      summary: 'How Council sends consented session summaries to council-cloud (ADR-018, Cross-Project Compatibility).',
      description: [
        'Events are ADR-018 council-cloud events (schema 1.1.0). Each carries only what its consent_level allows:',
        '0-1 are never sent; 2 rankings; 3 adds bias_indicators and query_metadata; 4 adds query_hash.',
        'The uploader checks this again before sending and never sends query text or API keys.',
      ].join(' '),
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: 'https://cloud.example.com', description: 'The base URL comes from LLM_COUNCIL_CLOUD_URL.' }],
    security: [{ bearerAuth: [] }],
    paths: {
      '/v1/events': {
        post: {
          operationId: 'ingestEvents',
          summary: `Store a batch of 1 to ${maxEventsPerBatch} events.`,
          description: [
            "Idempotent per event: each event's event_id (a UUID v4 set when the session queued it, never changed by the uploader) is its idempotency key.",
            "council-cloud stores an event_id at most once, whatever batch carries it, and lists the events it already held in the answer's `duplicates`;",
            'so an event sent again after a lost answer, in a batch of another size, or after `retry-dead`, is counted once. There is no batch-wide Idempotency-Key.',
            'The uploader moves its cursor only after a 2xx. It dead-letters only events council-cloud refuses by name: `rejected` in a 2xx, or in a 4xx whose body is the IngestError answer',
            "(then nothing of the batch was stored, and the rest is sent again). Any other 4xx (a proxy's page, an error naming no event of the batch) is retried with backoff like 408, 429, 5xx and network failures,",
            'and what is still unsent after the retries stays queued; a 413 naming no event splits the batch in halves. It stops on 401/403, on 404, 405, 410 and on redirects (not followed), moving nothing.',
          ].join(' '),
          parameters: [
            {
              name: 'User-Agent',
              in: 'header',
              required: true,
              description: 'council-telemetry/<version> (node/<version>; <platform>)',
              schema: { type: 'string' },
            },
          ],
          requestBody: {
            required: true,
            content: { 'application/json': { schema: { $ref: '#/components/schemas/IngestRequest' } } },
          },
          responses: {
            '200': {
              description:
                'The batch is committed. Events in `rejected` were not stored; the uploader dead-letters them with the reason. Events in `duplicates` were stored before (same event_id) and not stored again; they count as delivered.',
              content: { 'application/json': { schema: { $ref: '#/components/schemas/IngestResponse' } } },
            },
            '400': errorResponse(
              'The request is malformed. With `rejected` naming events of the batch: those are refused and nothing was stored; the uploader dead-letters them and sends the rest again. Without: retried like a 5xx; nothing is dead-lettered.',
            ),
            '401': errorResponse('The token is missing or wrong. The uploader stops; nothing moves.'),
            '413': errorResponse(
              'The batch is too large. With `rejected`: as 400. Without: the batch is split in halves and sent again; a single event still refused is retried and stays queued.',
            ),
            '422': errorResponse(
              'Events cannot be processed. As 400: the events named in `rejected` are refused; without `rejected` the batch is retried.',
            ),
            '403': errorResponse('The token may not ingest. The uploader stops; nothing moves.'),
            '408': errorResponse('Request timeout. Retried.'),
            '429': errorResponse('Too many requests. Retried after Retry-After.', retryAfter),
            '4XX': errorResponse(
              'Any other client error: with `rejected` naming events of the batch, as 400; otherwise retried with backoff like a 5xx (404, 405 and 410 stop the run, moving nothing).',
              retryAfter,
            ),
            '5XX': errorResponse('Server error. Retried with backoff (and after Retry-After when given).', retryAfter),
          },
        },
      },
    },
    components: {
      schemas: componentSchemas(),
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          description: 'LLM_COUNCIL_CLOUD_TOKEN. Sent only in this header.',
        },
      },
    },
  };
}

/** The document as it is checked in: two-space JSON with a final newline. */
export function openApiDocumentText(): string {
  return `${JSON.stringify(createOpenApiDocument(), null, 2)}\n`;
}
