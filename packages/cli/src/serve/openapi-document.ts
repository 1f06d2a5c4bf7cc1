import * as z from 'zod';
import packageJson from '../../package.json' with { type: 'json' };
import { openApiComponentSchemas } from '../openapi-component-schemas.js';
import {
  biasReportQuerySchema,
  biasReportResponseSchema,
  cancelResponseSchema,
  configResponseSchema,
  contributionsResponseSchema,
  errorBodySchema,
  leaderboardResponseSchema,
  sessionListQuerySchema,
  sessionListSchema,
  sessionRequestSchema,
  sessionResponseSchema,
  sessionRunningSchema,
  sessionStartedSchema,
  streamEventDataSchemas,
  windowQuerySchema,
} from './api-schemas.js';
import { evalListResponseSchema, evalReportResponseSchema } from './eval-api-schemas.js';

type JsonObject = Record<string, unknown>;

/** The component schemas, generated from the zod schemas the server validates with. */
function componentSchemas(): Record<string, JsonObject> {
  const named: [z.ZodType, string][] = [
    [errorBodySchema, 'Error'],
    [sessionRequestSchema, 'SessionRequest'],
    [sessionStartedSchema, 'SessionStarted'],
    [cancelResponseSchema, 'CancelResponse'],
    [sessionListSchema, 'SessionList'],
    [sessionResponseSchema, 'SessionResponse'],
    [sessionRunningSchema, 'SessionRunning'],
    [configResponseSchema, 'Config'],
    [leaderboardResponseSchema, 'Leaderboard'],
    [biasReportResponseSchema, 'BiasReport'],
    [contributionsResponseSchema, 'Contributions'],
    [evalListResponseSchema, 'EvalList'],
    [evalReportResponseSchema, 'EvalReport'],
    ...Object.entries(streamEventDataSchemas).map(([type, schema]): [z.ZodType, string] => [
      schema,
      `StreamEvent_${type}`,
    ]),
  ];
  return openApiComponentSchemas(named, 'input');
}

/** Query parameters from a query schema: each property, optional, as the string a URL carries. */
function queryParameters(schema: z.ZodObject): JsonObject[] {
  const json = z.toJSONSchema(schema, { io: 'input' }) as { properties?: Record<string, JsonObject> };
  return Object.entries(json.properties ?? {}).map(([name, property]) => ({
    name,
    in: 'query',
    required: false,
    schema: property,
  }));
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (description: string, schema: string) => ({
  description,
  content: { 'application/json': { schema: ref(schema) } },
});
const error = (description: string) => json(description, 'Error');
const refused = {
  '401': error('No token or a wrong one.'),
  '403': error('A Host that is not the server (DNS rebinding) or a foreign Origin.'),
};
const idParameter = (description: string) => ({
  name: 'id',
  in: 'path',
  required: true,
  schema: { type: 'string' },
  description,
});

/** The OpenAPI 3.1 description of `council serve`'s API, served at `GET /api/openapi.json`. */
export function createServeOpenApiDocument(): JsonObject {
  const events = Object.keys(streamEventDataSchemas);
  return {
    openapi: '3.1.0',
    info: {
      title: 'council serve',
      version: packageJson.version,
      summary:
        'The local HTTP API of the Council chat and dashboard: start sessions, follow them live, read the history and reports.',
      description: [
        'Served on 127.0.0.1 by default. Every /api request needs the per-launch token as "Authorization: Bearer <token>" (printed in the URL fragment at launch),',
        "a Host naming the bound address, and no Origin other than the server's own. No CORS headers are sent. Request bodies are at most 1 MiB.",
        'Every error body is { "error": { "code", "message" } }.',
      ].join(' '),
      license: { name: 'MIT', identifier: 'MIT' },
    },
    security: [{ bearerAuth: [] }],
    paths: {
      '/api/openapi.json': {
        get: { summary: 'This document.', responses: { '200': { description: 'OpenAPI 3.1.' }, ...refused } },
      },
      '/api/config': {
        get: {
          summary: 'What the chat offers: members, pools, strategies, modes, model suggestions, and what is saved.',
          responses: { '200': json('The configuration.', 'Config'), ...refused },
        },
      },
      '/api/sessions': {
        post: {
          summary: 'Start a council session, checked and saved exactly as `council ask` does.',
          requestBody: { required: true, content: { 'application/json': { schema: ref('SessionRequest') } } },
          responses: {
            '202': json('Started: follow it on the events stream.', 'SessionStarted'),
            '400': error(
              'Not JSON, a field out of range (named in the message), or a check of the council failed (unknown model or strategy, too few members, a missing key).',
            ),
            '413': error('The body is over 1 MiB.'),
            '415': error('The body is not sent as application/json.'),
            '422': error('The session could not start for another reason the message gives.'),
            ...refused,
          },
        },
        get: {
          summary:
            'Sessions newest first: runs in progress, then the history log, each titled by its question (kept locally unless history_questions: false); q searches the questions.',
          parameters: queryParameters(sessionListQuerySchema),
          responses: { '200': json('One page.', 'SessionList'), '400': error('A parameter out of range.'), ...refused },
        },
      },
      '/api/sessions/{id}': {
        get: {
          summary:
            'One session, by the id POST /api/sessions returned: as `council ask --json` prints it once saved in the history; while it runs, where to follow it.',
          parameters: [idParameter('A session id (from POST /api/sessions, or the history).')],
          responses: {
            '200': json('The session.', 'SessionResponse'),
            '202': json('Still running: follow its events; this path answers 200 once it is saved.', 'SessionRunning'),
            '404': error('No such session: not running, not in the history.'),
            ...refused,
          },
        },
      },
      '/api/sessions/{id}/events': {
        get: {
          summary: 'The run’s events as Server-Sent Events: every past event, then live ones, ending after `done`.',
          parameters: [
            idParameter('A session id (from POST /api/sessions).'),
            {
              name: 'Last-Event-ID',
              in: 'header',
              required: false,
              schema: { type: 'string', pattern: '^\\d+$' },
              description: 'Resume after this event.',
            },
          ],
          responses: {
            '200': {
              description: `text/event-stream. Each event has id (1, 2, 3… per run), event (${events.join(', ')}) and data (JSON, schema StreamEvent_<event>).`,
              content: { 'text/event-stream': { schema: { type: 'string' } } },
            },
            '400': error('Last-Event-ID is not a whole number.'),
            '404': error('No such run (finished runs are kept for the last 100).'),
            ...refused,
          },
        },
      },
      '/api/sessions/{id}/cancel': {
        post: {
          summary: 'Cancel a running session; it ends with `cancelled` then `done`, and nothing is saved.',
          parameters: [idParameter('A session id (from POST /api/sessions).')],
          responses: {
            '202': json('Cancelling.', 'CancelResponse'),
            '404': error('No such run.'),
            '409': error('The run is already over.'),
            ...refused,
          },
        },
      },
      '/api/leaderboard': {
        get: {
          summary: 'The document of `council leaderboard --json`.',
          responses: { '200': json('Standings.', 'Leaderboard'), ...refused },
        },
      },
      '/api/bias-report': {
        get: {
          summary:
            'The document of `council bias-report --format json`, over the last sessions and/or since a date; with calibrated=true also its calibrated figures and style-controlled ratings (`--calibrated`; style=false leaves the style fit out).',
          parameters: queryParameters(biasReportQuerySchema),
          responses: {
            '200': json('The report.', 'BiasReport'),
            '400': error('A parameter out of range.'),
            ...refused,
          },
        },
      },
      '/api/contributions': {
        get: {
          summary:
            'The document of `council contributions --json`: influence share per member with its interval, beside vote wins, and the member × strategy heatmap.',
          parameters: queryParameters(windowQuerySchema),
          responses: {
            '200': json('The report.', 'Contributions'),
            '400': error('A parameter out of range.'),
            ...refused,
          },
        },
      },
      '/api/evals': {
        get: {
          summary:
            'The eval runs saved in the home (each `council eval` run saves its report; a resumed run replaces its own), newest first.',
          responses: { '200': json('The runs.', 'EvalList'), ...refused },
        },
      },
      '/api/evals/{id}': {
        get: {
          summary:
            "One eval run's report: the document of `council eval --json` (accuracy, agreement with people, bias, cost), as the run saved it.",
          parameters: [idParameter('An eval run id (from GET /api/evals).')],
          responses: {
            '200': json('The report.', 'EvalReport'),
            '404': error('No such eval run in this home.'),
            ...refused,
          },
        },
      },
    },
    components: {
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', description: 'The per-launch token printed by council serve.' },
      },
      schemas: componentSchemas(),
    },
  };
}
