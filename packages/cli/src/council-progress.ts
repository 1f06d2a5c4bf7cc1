/**
 * The live display's model of a running session: one row per member with its state in stage 1 (answer)
 * and stage 2 (review), the chairman's stage 3, and running totals. `applyProgressEvent` folds the
 * session's events into it; `renderProgressFrame` draws it. Both are pure, so frames are testable.
 */

export type ProgressStage = 1 | 2 | 3;

export type CellState =
  | { status: 'waiting' }
  /** The call waits for a free slot of its endpoint (a provider's concurrency limit, e.g. a local one-slot server). */
  | { status: 'queued'; since: number }
  | { status: 'running'; startedAt: number; attempt: number }
  | { status: 'done'; ms: number }
  | { status: 'failed'; reason: string }
  | { status: 'skipped' }
  /** The chairman's synthesis streams to stdout below the display, which stops drawing: no spinner is left frozen. */
  | { status: 'streaming' };

export type ProgressEvent =
  | { type: 'stage-started'; stage: ProgressStage; at: number }
  | { type: 'model-started'; stage: ProgressStage; member: string; at: number }
  | { type: 'model-queued'; stage: ProgressStage; member: string; at: number }
  /** The queued call was sent: it runs from now (its deadline and latency start here). */
  | { type: 'model-dispatched'; stage: ProgressStage; member: string; at: number }
  | {
      type: 'model-finished';
      stage: ProgressStage;
      member: string;
      at: number;
      latencyMs?: number;
      tokens?: number;
      costUsd?: number;
    }
  | { type: 'model-failed'; stage: ProgressStage; member: string; at: number; reason: string }
  | { type: 'model-retried'; stage: ProgressStage; member: string; at: number; attempt: number }
  /** `succeeded` calls answered; at stage 2, `unread` of them gave no ranking that could be read (when reported). */
  | { type: 'stage-finished'; stage: ProgressStage; at: number; succeeded?: number; unread?: number }
  /** Running totals over the session so far. */
  | { type: 'usage'; tokens: number; costUsd: number | null; at: number }
  /** The synthesis has begun to stream below: the last frame drawn shows the chairman writing there. */
  | { type: 'synthesis-streaming'; at: number };

export interface CouncilProgress {
  startedAt: number;
  /** The stage now running; 'done' once stage 3 has finished. */
  stage: ProgressStage | 'done';
  members: readonly string[];
  chairman: string;
  answers: Record<string, CellState>;
  reviews: Record<string, CellState>;
  synthesis: CellState;
  /** Once stage 2 has finished and its unread reviews were reported: how many reviews came back, and of them how many rankings were read. */
  rankings?: { read: number; reviewed: number };
  tokens: number;
  /** Sum of the costs reported; null while no call has reported one. */
  costUsd: number | null;
  /** The provider label shown in the header, e.g. "simulated". */
  label: string;
}

export function createCouncilProgress(options: {
  members: readonly string[];
  chairman: string;
  startedAt: number;
  label: string;
}): CouncilProgress {
  const waiting = (): CellState => ({ status: 'waiting' });
  return {
    startedAt: options.startedAt,
    stage: 1,
    members: [...options.members],
    chairman: options.chairman,
    answers: Object.fromEntries(options.members.map((m) => [m, waiting()])),
    reviews: Object.fromEntries(options.members.map((m) => [m, waiting()])),
    synthesis: waiting(),
    tokens: 0,
    costUsd: null,
    label: options.label,
  };
}

function cellsOf(state: CouncilProgress, stage: ProgressStage): Record<string, CellState> | null {
  return stage === 1 ? state.answers : stage === 2 ? state.reviews : null;
}

function cellOf(state: CouncilProgress, at: { stage: ProgressStage; member: string }): CellState | undefined {
  if (at.stage === 3) return at.member === state.chairman ? state.synthesis : undefined;
  return cellsOf(state, at.stage)![at.member];
}

function withCell(
  state: CouncilProgress,
  at: { stage: ProgressStage; member: string },
  cell: CellState,
): CouncilProgress {
  const { stage, member } = at;
  if (stage === 3) return { ...state, synthesis: cell, chairman: member };
  const cells = cellsOf(state, stage)!;
  const next = { ...cells, [member]: cell };
  return stage === 1 ? { ...state, answers: next } : { ...state, reviews: next };
}

/** Folds one event into the state. Unknown members are added, so a chairman fallback still shows. */
export function applyProgressEvent(state: CouncilProgress, event: ProgressEvent): CouncilProgress {
  switch (event.type) {
    case 'stage-started':
      return { ...state, stage: event.stage };
    case 'stage-finished': {
      if (event.stage === 3) return { ...state, stage: 'done' };
      // Members that never started this stage (excluded earlier) are shown as skipped.
      const cells = cellsOf(state, event.stage)!;
      const next = Object.fromEntries(
        Object.entries(cells).map(([m, c]) => [m, c.status === 'waiting' ? ({ status: 'skipped' } as const) : c]),
      );
      if (event.stage === 1) return { ...state, answers: next };
      const rankings =
        event.succeeded === undefined || event.unread === undefined
          ? {}
          : { rankings: { read: Math.max(0, event.succeeded - event.unread), reviewed: event.succeeded } };
      return { ...state, reviews: next, ...rankings };
    }
    case 'model-started':
      // A call already queued stays queued until it is dispatched, whichever of the two events came first.
      if (cellOf(state, event)?.status === 'queued') return state;
      return withCell(state, event, { status: 'running', startedAt: event.at, attempt: 1 });
    case 'model-queued':
      return withCell(state, event, { status: 'queued', since: event.at });
    case 'model-dispatched':
      return withCell(state, event, { status: 'running', startedAt: event.at, attempt: 1 });
    case 'model-retried': {
      const current = cellOf(state, event);
      const startedAt = current?.status === 'running' ? current.startedAt : event.at;
      return withCell(state, event, { status: 'running', startedAt, attempt: event.attempt });
    }
    case 'model-finished': {
      const current = cellOf(state, event);
      const ms = event.latencyMs ?? (current?.status === 'running' ? event.at - current.startedAt : 0);
      const next = withCell(state, event, { status: 'done', ms });
      return {
        ...next,
        tokens: next.tokens + (event.tokens ?? 0),
        costUsd: event.costUsd === undefined ? next.costUsd : (next.costUsd ?? 0) + event.costUsd,
      };
    }
    case 'model-failed':
      return withCell(state, event, { status: 'failed', reason: event.reason });
    case 'usage':
      return { ...state, tokens: event.tokens, costUsd: event.costUsd };
    case 'synthesis-streaming':
      return state.synthesis.status === 'running' ? { ...state, synthesis: { status: 'streaming' } } : state;
  }
}
