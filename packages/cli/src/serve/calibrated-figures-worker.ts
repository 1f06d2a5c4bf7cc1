import { fileURLToPath } from 'node:url';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import type { BiasColumns } from '@council/bias-audit';
import { calibratedFigures } from '../commands/bias-report-command.js';

/** What a worker started by `calibratedFiguresOffThread` is given: the window's columns and the figures' options. */
interface CalibratedFiguresJob {
  kind: 'council-calibrated-figures';
  columns: BiasColumns;
  options: Parameters<typeof calibratedFigures>[1];
}

type CalibratedFiguresResult = Awaited<ReturnType<typeof calibratedFigures>>;

type WorkerReply = { ok: true; figures: CalibratedFiguresResult } | { ok: false; name: string; message: string };

/** The columns as a plain object of arrays and typed arrays, which a worker receives by structured clone. */
function plainColumns(columns: BiasColumns): BiasColumns {
  const { length, reviewer, candidate, position, responseLengthChars, score, rankPosition, configVersion } = columns;
  const { sessionIds, sessionTime, sessionStart, models, configVersions, queryCategories } = columns;
  return {
    length,
    reviewer,
    candidate,
    position,
    responseLengthChars,
    score,
    rankPosition,
    configVersion,
    sessionIds: [...sessionIds],
    sessionTime,
    sessionStart,
    models: [...models],
    configVersions: [...configVersions],
    queryCategories: [...queryCategories],
    ...(columns.session === undefined ? {} : { session: columns.session }),
    ...(columns.time === undefined ? {} : { time: columns.time }),
    ...(columns.queryCategory === undefined ? {} : { queryCategory: columns.queryCategory }),
    ...(columns.positionIsDisplayOrder === undefined ? {} : { positionIsDisplayOrder: columns.positionIsDisplayOrder }),
  };
}

// In a worker started below (this module's own file, whatever chunk the bundler put it in): compute, reply, exit.
if (!isMainThread && (workerData as { kind?: unknown } | null)?.kind === 'council-calibrated-figures') {
  const job = workerData as CalibratedFiguresJob;
  calibratedFigures(job.columns, job.options).then(
    (figures) => parentPort!.postMessage({ ok: true, figures } satisfies WorkerReply),
    (error: unknown) =>
      parentPort!.postMessage({
        ok: false,
        name: error instanceof Error ? error.name : 'Error',
        message: error instanceof Error ? error.message : String(error),
      } satisfies WorkerReply),
  );
}

/**
 * `calibratedFigures` on a worker thread, so `council serve` keeps answering while the bootstraps run (the style fit
 * alone is seconds over 100 sessions). The worker runs this module's own file — in the package's dist and in the
 * bundled app alike it is the chunk the bundler put this module in, so no separate entry has to be kept in step —
 * and gets the columns by structured clone. From the TypeScript sources (the package's tests) there is no JavaScript
 * file for a worker to load, so the figures are computed here. `signal` (the request's) stops the worker early.
 */
export async function calibratedFiguresOffThread(
  columns: BiasColumns,
  options: Parameters<typeof calibratedFigures>[1] & { signal?: AbortSignal },
): Promise<CalibratedFiguresResult> {
  const { signal, ...figureOptions } = options;
  const self = new URL(import.meta.url);
  if (self.protocol !== 'file:' || !/\.m?js$/.test(fileURLToPath(self)))
    return calibratedFigures(columns, figureOptions);
  signal?.throwIfAborted();
  const job: CalibratedFiguresJob = {
    kind: 'council-calibrated-figures',
    columns: plainColumns(columns),
    options: figureOptions,
  };
  const worker = new Worker(self, { workerData: job });
  try {
    return await new Promise<CalibratedFiguresResult>((resolve, reject) => {
      const abort = (): void => reject(signal!.reason as Error);
      signal?.addEventListener('abort', abort, { once: true });
      worker.once('message', (reply: WorkerReply) => {
        signal?.removeEventListener('abort', abort);
        if (reply.ok) resolve(reply.figures);
        else reject(Object.assign(new Error(reply.message), { name: reply.name }));
      });
      worker.once('error', (error) => {
        signal?.removeEventListener('abort', abort);
        reject(error);
      });
      worker.once('exit', (code) => reject(new Error(`the calibrated figures' worker exited with code ${code}`)));
    });
  } finally {
    await worker.terminate();
  }
}
