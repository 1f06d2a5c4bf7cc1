import { scrubSecrets } from '@council/providers';
import type { HttpBindings } from '@hono/node-server';
import { Hono } from 'hono';
import type * as z from 'zod';
import { CliError } from '../cli-error.js';
import type { CommandContext } from '../command-context.js';
import { computeBiasReport } from '../commands/bias-report-command.js';
import { computeContributionsReport } from '../commands/contributions-command.js';
import { loadHistory } from '../commands/history-command.js';
import { computeLeaderboard } from '../commands/leaderboard-command.js';
import { checkBearerToken, checkLocalAddress } from '../mcp/check-local-request.js';
import { dropRestOfBody, readLimitedBody } from '../mcp/server-limits.js';
import { sessionDocument } from '../session-document.js';
import {
  describeInvalidInput,
  sessionListQuerySchema,
  sessionRequestSchema,
  windowQuerySchema,
  biasReportQuerySchema,
} from './api-schemas.js';
import { calibratedFiguresOffThread } from './calibrated-figures-worker.js';
import { evalRoutes } from './eval-routes.js';
import { eventStreamBody } from './event-stream-body.js';
import { listSessions } from './list-sessions.js';
import { createServeOpenApiDocument } from './openapi-document.js';
import { serveConfig } from './serve-config.js';
import type { SessionHub } from './session-hub.js';
import { describeRunError } from './session-hub.js';
import type { WebAsset } from './web-assets.js';

/** Largest request body accepted: a question of 100,000 characters fits many times over. */
export const MAX_BODY_BYTES = 1024 * 1024;
/** A comment line on idle streams, so that no proxy or browser gives up on a long stage. */
const KEEP_ALIVE_MS = 15_000;

export const CONTENT_SECURITY_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

export interface ServeAppOptions {
  hub: SessionHub;
  /** The server's context (its settings say where the history and stores are). */
  ctx: CommandContext;
  host: string;
  /** The bound port (known once listening). */
  port: () => number;
  token: string;
  demo: boolean;
  /** The web UI's files; null when the package was built without them. */
  assets: readonly WebAsset[] | null;
  log: (line: string) => void;
}

type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 415 | 422 | 500;

/** An error response: `{ "error": { "code", "message" } }`, its message scrubbed of URL credentials and query keys. */
function fail(options: { status: ErrorStatus; code: string; message: string }): Response {
  return new Response(JSON.stringify({ error: { code: options.code, message: scrubSecrets(options.message) } }), {
    status: options.status,
    headers: { 'Content-Type': 'application/json; charset=utf-8' },
  });
}

/**
 * Sets the headers every response carries on the response itself. (Hono's c.header() after the handler copies
 * the whole response once per header, and the copy makes @hono/node-server send even a short JSON body through
 * a web stream rather than in one write.) Every response here is built by this app, so its headers can be set.
 */
function withSafetyHeaders(response: Response, options: { api: boolean }): Response {
  const headers = response.headers;
  headers.set('X-Content-Type-Options', 'nosniff');
  headers.set('Referrer-Policy', 'no-referrer');
  headers.set('Content-Security-Policy', CONTENT_SECURITY_POLICY);
  if (options.api) headers.set('Cache-Control', 'no-store');
  return response;
}

function invalid(message: string): Response {
  return fail({ status: 400, code: 'INVALID_INPUT', message });
}

/** The query string parsed by a schema, or the 400 naming the first bad parameter. */
function parseQuery<S extends z.ZodType>(
  query: Record<string, string>,
  schema: S,
): { ok: true; value: z.infer<S> } | { ok: false; response: Response } {
  const parsed = schema.safeParse(query);
  return parsed.success
    ? { ok: true, value: parsed.data }
    : { ok: false, response: invalid(describeInvalidInput(parsed.error)) };
}

/**
 * The Hono application of `council serve`: the JSON API under `/api` (token, Host and Origin checked on
 * every request), the events streams, and the web UI's static files (Host and Origin checked, no token:
 * the page gets the token from its URL fragment). No CORS headers, ever.
 */
export function createServeApp(options: ServeAppOptions): Hono<{ Bindings: HttpBindings }> {
  const { hub, ctx } = options;
  const app = new Hono<{ Bindings: HttpBindings }>();
  const address = () => ({ host: options.host, port: options.port() });

  // What is left of a refused request's body is dropped, up to MAX_BODY_BYTES more, then its connection is closed
  // (not read to the end, as Node would to reach a next request on it). (`incoming` is missing under app.request().)
  const refusing = (env: Partial<HttpBindings> | undefined, response: Response): Response => {
    if (env?.incoming !== undefined && env.outgoing !== undefined)
      dropRestOfBody({ req: env.incoming, res: env.outgoing, maxBytes: MAX_BODY_BYTES });
    return response;
  };
  app.use('*', async (c, next) => {
    const refusal = checkLocalAddress({ host: c.req.header('host'), origin: c.req.header('origin') }, address());
    if (refusal !== null)
      return refusing(
        c.env,
        withSafetyHeaders(fail({ status: refusal.status, code: 'FORBIDDEN', message: refusal.message }), {
          api: false,
        }),
      );
    await next();
    withSafetyHeaders(c.res, { api: c.req.path.startsWith('/api/') });
  });

  app.use('/api/*', async (c, next) => {
    const refusal = checkBearerToken(
      { authorization: c.req.header('authorization') },
      { token: options.token, issuer: 'council serve' },
    );
    if (refusal !== null)
      return refusing(c.env, fail({ status: refusal.status, code: 'UNAUTHORIZED', message: refusal.message }));
    await next();
  });
  app.use('/api/*', async (c, next) => {
    const tooLarge = () =>
      refusing(
        c.env,
        fail({ status: 413, code: 'TOO_LARGE', message: `The request body is over ${MAX_BODY_BYTES} bytes (1 MiB).` }),
      );
    const chunked = c.req.header('transfer-encoding') !== undefined;
    // A body of a declared length within the limit (or none) is left to the route: @hono/node-server then reads it
    // straight off the socket. Asking for the body stream here, as hono/body-limit does on every request, makes it
    // build a whole web Request (headers copied, an AbortController, the body as a web stream read chunk by chunk).
    if (!chunked && Number(c.req.header('content-length') ?? '0') <= MAX_BODY_BYTES) return next();
    // Too long a declared length is refused before a byte of it is read; a body without one (chunked) is counted
    // as it arrives and refused once past the limit. (Read off the socket: under app.request() there is none.)
    if (!chunked) return tooLarge();
    const body =
      c.env?.incoming === undefined
        ? new Uint8Array(await c.req.raw.arrayBuffer())
        : await readLimitedBody(c.env.incoming, MAX_BODY_BYTES);
    if (body === 'gone') return new Response(null, { status: 400 });
    if (body === 'tooLarge' || body.byteLength > MAX_BODY_BYTES) return tooLarge();
    c.req.raw = new Request(c.req.raw, { body });
    return next();
  });

  const openApi = JSON.stringify(createServeOpenApiDocument());
  app.get('/api/openapi.json', (c) => c.body(openApi, 200, { 'Content-Type': 'application/json; charset=utf-8' }));

  app.get('/api/config', async (c) => c.json(await serveConfig(ctx, { demo: options.demo })));

  app.post('/api/sessions', async (c) => {
    // Only JSON: a form or text/plain body is what a page on another site can send without a preflight.
    if (!/^application\/json\s*(;|$)/i.test(c.req.header('content-type') ?? '')) {
      return fail({
        status: 415,
        code: 'UNSUPPORTED_MEDIA_TYPE',
        message: 'Send the session as JSON, with "Content-Type: application/json".',
      });
    }
    let body: unknown;
    try {
      body = JSON.parse(await c.req.text());
    } catch {
      return invalid('The request body is not JSON: send a JSON object such as {"query": "…"}.');
    }
    const parsed = sessionRequestSchema.safeParse(body);
    if (!parsed.success) return invalid(describeInvalidInput(parsed.error));
    try {
      const run = await hub.start(parsed.data);
      return c.json({ id: run.id, events: `/api/sessions/${run.id}/events` }, 202);
    } catch (error) {
      const described = describeRunError(error);
      if (described.code === 'INTERNAL') throw error;
      const status = CliError.isInstance(error) && error.code === 'USAGE' ? 400 : 422;
      return fail({ status, code: described.code, message: described.message });
    }
  });

  app.get('/api/sessions', async (c) => {
    const query = parseQuery(c.req.query(), sessionListQuerySchema);
    if (!query.ok) return query.response;
    const { entries } = await loadHistory(ctx);
    try {
      return c.json(listSessions({ entries, runs: hub.runs(), query: query.value }));
    } catch (error) {
      if (CliError.isInstance(error)) return invalid(error.message);
      throw error;
    }
  });

  app.get('/api/sessions/:id', async (c) => {
    const id = c.req.param('id');
    const { entries } = await loadHistory(ctx);
    const entry = entries.find((e) => e.session.sessionId === id);
    if (entry === undefined) {
      // One id per session: while it runs, the id POST returned says where to follow it (202), and 200 once saved.
      if (hub.get(id)?.status === 'running')
        return c.json({ id, running: true as const, events: `/api/sessions/${id}/events` }, 202);
      return fail({ status: 404, code: 'NOT_FOUND', message: `No session "${id}": not running, not in the history.` });
    }
    return c.json({ session: sessionDocument(entry.session), question: entry.question ?? null });
  });

  app.get('/api/sessions/:id/events', (c) => {
    const run = hub.get(c.req.param('id'));
    if (run === undefined)
      return fail({
        status: 404,
        code: 'NOT_FOUND',
        message: `No session run "${c.req.param('id')}" (the streams of the last 100 finished runs are kept; a past session is at /api/sessions/<id>).`,
      });
    const lastEventId = c.req.header('last-event-id');
    if (lastEventId !== undefined && !/^\d+$/.test(lastEventId.trim()))
      return invalid(`Last-Event-ID: "${lastEventId}" is not an event id (a whole number).`);
    const after = lastEventId === undefined ? 0 : Number(lastEventId.trim());
    return c.body(eventStreamBody({ log: run.log, afterId: after, keepAliveMs: KEEP_ALIVE_MS }), 200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
      'X-Accel-Buffering': 'no',
      // As Hono's streamSSE says: @hono/node-server then sends the headers at once, instead of first reading the
      // body for a while to see whether it ends (and could get a Content-Length).
      'Transfer-Encoding': 'chunked',
    });
  });

  app.post('/api/sessions/:id/cancel', (c) => {
    const id = c.req.param('id');
    const outcome = hub.cancel(id);
    if (outcome === 'unknown') return fail({ status: 404, code: 'NOT_FOUND', message: `No session run "${id}".` });
    if (outcome === 'saving')
      return fail({
        status: 409,
        code: 'CONFLICT',
        message: `Session run "${id}" has finished and is being saved; it can no longer be cancelled.`,
      });
    if (outcome === 'over')
      return fail({ status: 409, code: 'CONFLICT', message: `Session run "${id}" is already over.` });
    return c.json({ status: 'cancelling' as const }, 202);
  });

  app.get('/api/leaderboard', async (c) => c.json((await computeLeaderboard({}, ctx)).document));

  app.get('/api/bias-report', async (c) => {
    const query = parseQuery(c.req.query(), biasReportQuerySchema);
    if (!query.ok) return query.response;
    const { last, since, calibrated, style } = query.value;
    const { document, loaded } = await computeBiasReport(
      {
        ...(last === undefined ? {} : { sessions: last }),
        // A date bound, as given (not turned into a number of days before now).
        ...(since === undefined ? {} : { since }),
      },
      ctx,
    );
    // `--calibrated`'s figures too (the dashboard's Raw / Calibrated toggle and n_eff): seconds of CPU over many
    // sessions, the style fit most, so they run on a worker thread and every other request (a running session's
    // event stream too) is answered meanwhile; the dashboard still asks for the style fit only when it is opened.
    if (calibrated === 'true')
      Object.assign(
        document,
        await calibratedFiguresOffThread(loaded.columns, {
          seed: document.options.seed,
          styleControlled: style !== 'false',
          signal: c.req.raw.signal,
        }),
      );
    return c.json(document);
  });

  app.get('/api/contributions', async (c) => {
    const query = parseQuery(c.req.query(), windowQuerySchema);
    if (!query.ok) return query.response;
    const { last, since } = query.value;
    return c.json(
      await computeContributionsReport(
        { ...(last === undefined ? {} : { last }), ...(since === undefined ? {} : { since }) },
        ctx,
      ),
    );
  });

  // The eval runs saved in the home, and one run's report (`council eval --json`'s document), read as saved.
  app.route('/api/evals', evalRoutes(ctx));

  for (const asset of options.assets ?? []) {
    app.get(asset.path, (c) =>
      c.body(typeof asset.body === 'string' ? asset.body : new Uint8Array(asset.body), 200, {
        'Content-Type': asset.contentType,
      }),
    );
  }
  if (options.assets === null) {
    app.get('/', () =>
      fail({
        status: 404,
        code: 'NO_WEB_UI',
        message:
          'This build of council has no web UI: the JSON API is at /api (see /api/openapi.json, with the token as "Authorization: Bearer <token>").',
      }),
    );
  }

  app.notFound((c) =>
    fail({
      status: 404,
      code: 'NOT_FOUND',
      message: `Nothing at ${c.req.method} ${c.req.path}: the API is under /api (see /api/openapi.json).`,
    }),
  );
  app.onError((error, c) => {
    if (CliError.isInstance(error) && error.code === 'USAGE')
      return fail({ status: 400, code: 'INVALID_INPUT', message: error.message });
    // The log gets the kind of error only: a message could quote what a request carried.
    options.log(
      `request ${c.req.method} ${c.req.path} failed: ${error.name}${'code' in error && typeof error.code === 'string' ? ` (${error.code})` : ''}`,
    );
    return fail({ status: 500, code: 'INTERNAL', message: 'Internal error; see the server log.' });
  });
  return app;
}
