import type { SseEvent } from './sse-parser.js';
import type { SessionDocument } from './types.js';

export type Stage = 1 | 2 | 3;

export interface StageState {
  status: 'waiting' | 'running' | 'finished';
  calls: number;
  /** Calls that finished (while running: counted from model-finished; at the end: the stage's own total). */
  succeeded: number;
  /** Calls that failed (likewise). */
  failed: number;
}

/**
 * A stage's progress in words: "waiting"; while it runs, how many of its calls are done and how many still run
 * ("3 of 4 done, 1 running" — never "4 running" after three answered); once finished, "3 ok, 1 failed".
 */
export function stageProgressText(s: StageState): string {
  if (s.status === 'finished') return `${s.succeeded} ok${s.failed ? `, ${s.failed} failed` : ''}`;
  if (s.status === 'waiting') return 'waiting';
  const settled = s.succeeded + s.failed;
  const running = Math.max(0, s.calls - settled);
  if (settled === 0) return `${s.calls} running`;
  return `${Math.min(s.succeeded, s.calls)} of ${s.calls} done${s.failed ? `, ${s.failed} failed` : ''}${running > 0 ? `, ${running} running` : ''}`;
}

/** A member's stage-1 slot while the run goes on. */
export interface LiveAnswer {
  member: string;
  model: string;
  status: 'running' | 'answered' | 'failed';
  text: string | null;
  latencyMs: number | null;
  /** Why the call failed (status `failed`). */
  failure: string | null;
}

/** A stage-2 review as streamed: the labels are still anonymous. */
export interface LiveReview {
  reviewer: string;
  model: string;
  ranking: string[];
  scores: Record<string, number> | null;
  /** Its critiques by label (absent from servers that did not stream them). */
  critiques?: Record<string, { strengths: string; weaknesses: string }> | null;
}

export type RunStatus = 'running' | 'finished' | 'failed' | 'cancelled';

/** Everything the page knows about one run, folded from its events. */
export interface RunState {
  stages: Record<Stage, StageState>;
  answers: LiveAnswer[];
  reviews: LiveReview[];
  chairman: string | null;
  /** The synthesis so far, piece by piece (`synthesis-text`). */
  synthesis: string;
  synthesisPieces: number;
  session: SessionDocument | null;
  usage: { tokens: number; costUsd: number | null } | null;
  error: { code: string; message: string } | null;
  /** Retries and failures of single calls, for the progress list. */
  notes: string[];
  status: RunStatus;
  events: number;
}

const waiting: StageState = { status: 'waiting', calls: 0, succeeded: 0, failed: 0 };

export function initialRunState(): RunState {
  return {
    stages: { 1: waiting, 2: waiting, 3: waiting },
    answers: [],
    reviews: [],
    chairman: null,
    synthesis: '',
    synthesisPieces: 0,
    session: null,
    usage: null,
    error: null,
    notes: [],
    status: 'running',
    events: 0,
  };
}

function upsertAnswer(
  answers: LiveAnswer[],
  member: string,
  patch: Partial<LiveAnswer> & { model: string },
): LiveAnswer[] {
  const index = answers.findIndex((a) => a.member === member);
  if (index < 0)
    return [...answers, { member, status: 'running', text: null, latencyMs: null, failure: null, ...patch }];
  return answers.map((a, i) => (i === index ? { ...a, ...patch } : a));
}

function stageOf(value: unknown): Stage | null {
  return value === 1 || value === 2 || value === 3 ? value : null;
}

/** Folds one event of `/api/sessions/:id/events` into the run's state (unknown types are ignored). */
export function applyRunEvent(state: RunState, event: SseEvent): RunState {
  let data: Record<string, unknown>;
  try {
    data = JSON.parse(event.data) as Record<string, unknown>;
  } catch {
    return state;
  }
  const next: RunState = { ...state, events: state.events + 1 };
  const str = (key: string) => (typeof data[key] === 'string' ? data[key] : '');
  const num = (key: string) => (typeof data[key] === 'number' ? data[key] : 0);
  const stage = stageOf(data['stage']);
  switch (event.event) {
    case 'stage-started':
      if (stage)
        next.stages = { ...state.stages, [stage]: { ...state.stages[stage], status: 'running', calls: num('calls') } };
      return next;
    case 'stage-finished':
      if (stage)
        next.stages = {
          ...state.stages,
          [stage]: { ...state.stages[stage], status: 'finished', succeeded: num('succeeded'), failed: num('failed') },
        };
      return next;
    case 'model-finished':
      // Counted while the stage runs; its stage-finished event then gives the totals.
      if (stage && state.stages[stage].status === 'running')
        next.stages = {
          ...state.stages,
          [stage]: { ...state.stages[stage], succeeded: state.stages[stage].succeeded + 1 },
        };
      return next;
    case 'model-started':
      if (stage === 1)
        next.answers = upsertAnswer(state.answers, str('member'), { model: str('model'), status: 'running' });
      if (stage === 3) next.chairman = str('member') || str('model');
      return next;
    case 'model-failed':
      if (stage && state.stages[stage].status === 'running')
        next.stages = { ...state.stages, [stage]: { ...state.stages[stage], failed: state.stages[stage].failed + 1 } };
      if (stage === 1)
        next.answers = upsertAnswer(state.answers, str('member'), {
          model: str('model'),
          status: 'failed',
          failure: `${str('reason')}: ${str('message')}`,
        });
      next.notes = [
        ...state.notes,
        `Stage ${stage ?? '?'}: ${str('member')} failed (${str('reason')}): ${str('message')}`,
      ];
      return next;
    case 'model-retried':
      next.notes = [...state.notes, `Stage ${stage ?? '?'}: ${str('member')} retried after ${str('reason')}`];
      return next;
    case 'answer':
      next.answers = upsertAnswer(state.answers, str('member'), {
        model: str('model'),
        status: 'answered',
        text: str('text'),
        latencyMs: num('latencyMs'),
      });
      return next;
    case 'review': {
      const ranking = Array.isArray(data['ranking'])
        ? data['ranking'].filter((x): x is string => typeof x === 'string')
        : [];
      const scores =
        data['scores'] && typeof data['scores'] === 'object' ? (data['scores'] as Record<string, number>) : null;
      const critiques =
        data['critiques'] && typeof data['critiques'] === 'object'
          ? (data['critiques'] as Record<string, { strengths: string; weaknesses: string }>)
          : null;
      next.reviews = [
        ...state.reviews,
        { reviewer: str('reviewer'), model: str('model'), ranking, scores, ...(critiques ? { critiques } : {}) },
      ];
      return next;
    }
    case 'synthesis-text':
      next.synthesis = state.synthesis + str('text');
      next.synthesisPieces = state.synthesisPieces + 1;
      if (str('chairman')) next.chairman = str('chairman');
      return next;
    case 'usage':
      next.usage = { tokens: num('tokens'), costUsd: typeof data['costUsd'] === 'number' ? data['costUsd'] : null };
      return next;
    case 'session':
      next.session = (data['session'] as SessionDocument | undefined) ?? null;
      return next;
    case 'error':
      next.error = { code: str('code'), message: str('message') };
      return next;
    case 'cancelled':
      next.status = 'cancelled';
      return next;
    case 'done': {
      const status = str('status');
      next.status = status === 'finished' || status === 'failed' || status === 'cancelled' ? status : 'finished';
      return next;
    }
    default:
      return state;
  }
}
