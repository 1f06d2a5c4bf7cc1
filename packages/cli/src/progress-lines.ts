import type { CouncilEvent, CouncilStage } from '@council/core';
import { rankingsRead } from './render-progress-frame.js';
import { STAGE_DONE_VERBS, STAGE_NAMES } from './stage-labels.js';

/** How often at most a "still waiting" line is printed, and how long a call must have run before the first. */
export const WAIT_LINE_INTERVAL_MS = 15_000;

const REASONS: Record<string, string> = {
  timeout: 'timed out',
  error: 'failed',
  empty: 'gave an empty answer',
  aborted: 'was aborted',
  'too-large': 'sent a reply too large',
};

export interface ProgressLines {
  /** Prints the line an event calls for, if any. */
  onEvent(event: CouncilEvent): void;
  /** Prints "still waiting for …" when a call has been pending for an interval and none was printed for one. */
  tick(): void;
  /** Starts calling `tick` every second (on a timer that never keeps the process alive). */
  start(): void;
  stop(): void;
  /**
   * Stops the ticker and keeps every further line back, for while the synthesis streams to stdout: with both
   * streams in one log (CI, `2>&1`) a line would land in the middle of the answer.
   */
  hold(): void;
  /** Prints the lines kept back since `hold` and prints as they come again (the ticker stays off). */
  release(): void;
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

/**
 * Plain progress for a pipe or a CI log, where the live display cannot redraw: one line when a stage
 * begins or ends and when a member answers or fails, and at most every `intervalMs` (15 s) a line naming
 * the calls still pending — so a hung member is visible long before its timeout. Events never carry the
 * query text, and neither do these lines; a provider's message is cut to its first line.
 */
export function createProgressLines(options: {
  write: (text: string) => void;
  now?: () => number;
  intervalMs?: number;
}): ProgressLines {
  const now = options.now ?? (() => Date.now());
  const intervalMs = options.intervalMs ?? WAIT_LINE_INTERVAL_MS;
  // A queued call waits for its endpoint's free slot: listed apart, and its wait starts when it is dispatched.
  const pending = new Map<string, { member: string; startedAt: number; queued: boolean }>();
  const stageStarted = new Map<CouncilStage, number>();
  const finished = new Set<string>();
  let lastWaitLine = Number.NEGATIVE_INFINITY;
  let timer: ReturnType<typeof setInterval> | undefined;
  let held: string[] | null = null;
  const say = (line: string) => {
    if (held === null) options.write(`${line}\n`);
    else held.push(line);
  };

  const lines: ProgressLines = {
    onEvent(event) {
      switch (event.type) {
        case 'stage-started':
          stageStarted.set(event.stage, now());
          say(
            `stage ${event.stage} (${STAGE_NAMES[event.stage]}): ${event.calls} call${event.calls === 1 ? '' : 's'} started`,
          );
          return;
        case 'stage-finished': {
          const took = now() - (stageStarted.get(event.stage) ?? now());
          // "4 reviewed" alone would hide that no ranking could be read from them.
          const read =
            event.unread === undefined || event.succeeded === 0
              ? ''
              : `, ${rankingsRead({ read: Math.max(0, event.succeeded - event.unread), reviewed: event.succeeded })}`;
          say(
            `stage ${event.stage} (${STAGE_NAMES[event.stage]}) done: ${event.succeeded} ${STAGE_DONE_VERBS[event.stage]}${read}${event.failed ? `, ${event.failed} failed` : ''} (${seconds(took)})`,
          );
          return;
        }
        case 'model-started':
          pending.set(`${event.stage}:${event.member}`, { member: event.member, startedAt: now(), queued: false });
          return;
        case 'model-queued':
          pending.set(`${event.stage}:${event.member}`, { member: event.member, startedAt: now(), queued: true });
          say(`  ${event.member} queued at stage ${event.stage}: waiting for a free slot of its endpoint`);
          return;
        case 'model-dispatched':
          pending.set(`${event.stage}:${event.member}`, { member: event.member, startedAt: now(), queued: false });
          return;
        case 'model-finished': {
          const key = `${event.stage}:${event.member}`;
          pending.delete(key);
          // A second call of one reviewer is core's repair request (its first reply had no ranking to read).
          const again = event.stage === 2 && finished.has(key);
          finished.add(key);
          say(
            `  ${event.member} ${again ? 'replied to a repair request' : STAGE_DONE_VERBS[event.stage]} (${seconds(event.latencyMs)})`,
          );
          return;
        }
        case 'model-failed': {
          pending.delete(`${event.stage}:${event.member}`);
          const message = shortMessage(event.message.split('\n')[0]!);
          say(`  ${event.member} ${REASONS[event.reason] ?? event.reason} at stage ${event.stage}: ${message}`);
          return;
        }
        case 'model-retried':
          say(`  chairman ${event.previous} failed; ${event.member} takes over`);
          return;
        case 'usage':
          return;
      }
    },
    tick() {
      const running = [...pending.values()].filter((p) => !p.queued);
      if (running.length === 0) return;
      const t = now();
      const oldest = Math.min(...running.map((p) => p.startedAt));
      if (t - oldest < intervalMs || t - lastWaitLine < intervalMs) return;
      lastWaitLine = t;
      const members = [...new Set(running.map((p) => p.member))];
      const queued = [...new Set([...pending.values()].filter((p) => p.queued).map((p) => p.member))];
      say(
        `  still waiting for ${members.join(', ')} (${Math.floor((t - oldest) / 1000)} s)${queued.length > 0 ? `; queued for a free slot: ${queued.join(', ')}` : ''}`,
      );
    },
    start() {
      timer = setInterval(() => lines.tick(), Math.min(1000, intervalMs));
      timer.unref();
    },
    stop() {
      clearInterval(timer);
      timer = undefined;
    },
    hold() {
      lines.stop();
      held ??= [];
    },
    release() {
      const kept = held ?? [];
      held = null;
      for (const line of kept) say(line);
    },
  };
  return lines;
}

/**
 * A failure's message for one progress line: whole when it fits 160 characters; else its whole sentences up to 240
 * (a message is never cut in the middle of its advice); a first sentence longer than 160 (a provider's long error
 * body) is cut at 160 with "…".
 */
function shortMessage(first: string): string {
  if (first.length <= 160) return first;
  const sentences = first.split(/(?<=[.!?])\s+/);
  if (sentences[0]!.length > 160) return `${first.slice(0, 159)}…`;
  let kept = sentences[0]!;
  for (const sentence of sentences.slice(1)) {
    if (kept.length + 1 + sentence.length > 240) return `${kept} …`;
    kept = `${kept} ${sentence}`;
  }
  return kept;
}
