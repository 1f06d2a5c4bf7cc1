import { scrubSecrets } from '@council/providers';
import type { HttpBindings } from '@hono/node-server';
import { Hono } from 'hono';
import type { CommandContext } from '../command-context.js';
import { commandSettings } from '../command-context.js';
import { listEvalReports, readEvalReport } from '../eval/eval-report-store.js';

/**
 * `/api/evals` (mounted under the app's token, Host and Origin checks): the eval runs saved in the home, and one run's
 * report — the document `council eval --json` printed, read as saved (nothing recomputed from the journal, so a
 * request costs a file read however large the run).
 */
export function evalRoutes(ctx: CommandContext): Hono<{ Bindings: HttpBindings }> {
  const app = new Hono<{ Bindings: HttpBindings }>();
  const home = () => commandSettings(ctx).home;
  app.get('/', async (c) => c.json({ evals: await listEvalReports(home()) }));
  app.get('/:id', async (c) => {
    const id = c.req.param('id');
    const report = await readEvalReport({ home: home(), id });
    if (report !== null) return c.json(report);
    const message = `No eval run "${id}" in this home (council eval saves each run's report; GET /api/evals lists them).`;
    return new Response(JSON.stringify({ error: { code: 'NOT_FOUND', message: scrubSecrets(message) } }), {
      status: 404,
      headers: { 'Content-Type': 'application/json; charset=utf-8' },
    });
  });
  return app;
}
