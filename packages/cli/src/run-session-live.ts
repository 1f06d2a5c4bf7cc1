import { runCouncil } from '@council/core';
import type { CouncilEvent, CouncilSession, RunCouncilOptions, Stage1Result, Stage2Result } from '@council/core';
import type { CommandContext } from './command-context.js';
import { applyProgressEvent, createCouncilProgress } from './council-progress.js';
import { createLiveDisplay } from './live-display.js';
import { progressFromCouncilEvent } from './progress-from-council-event.js';
import { createProgressLines } from './progress-lines.js';
import { renderProgressFrame } from './render-progress-frame.js';
import type { SynthesisStreamPrinter } from './synthesis-stream-printer.js';

/** Whether the live display may draw: only when both streams are terminals (never into a file or a pipe). */
export function liveDisplayEnabled(ctx: Pick<CommandContext, 'io'>): boolean {
  return ctx.io.stderrIsTTY === true && ctx.io.stdoutIsTTY === true;
}

/**
 * Runs one council session with the live display on stderr (when it may draw): each member's state per
 * stage, elapsed time, tokens and cost, redrawn in place from the session's events. When it may not (a
 * pipe, a CI log, a redirected stdout), plain progress lines go to stderr instead (`createProgressLines`).
 */
export async function runSessionLive(options: {
  council: Omit<RunCouncilOptions, 'onEvent'>;
  ctx: CommandContext;
  members: readonly string[];
  chairman: string;
  label: string;
  /** Also receives every event (after the display). */
  onEvent?: (event: CouncilEvent) => void;
  /**
   * Prints the synthesis as it is written; the live display stops before the first piece (stdout takes over),
   * and the progress lines are kept back until the printer has finished the answer.
   */
  printer?: SynthesisStreamPrinter;
  /**
   * Called once, just before the first piece of the streamed synthesis (the display stopped, the progress lines
   * held), to print what goes above it, such as the members' answers: the results of stages 1 and 2 so far, stage 1
   * in the members' order. Not called when nothing streams (the caller then prints everything after the session).
   */
  beforeSynthesis?: (results: { stage1: Stage1Result[]; stage2: Stage2Result[] }) => void;
}): Promise<{ session: CouncilSession; answerStreamed: boolean; shownBeforeSynthesis: boolean }> {
  const { ctx } = options;
  // What stages 1 and 2 returned, as their calls end, for `beforeSynthesis`.
  const answers: Stage1Result[] = [];
  const reviews: Stage2Result[] = [];
  const before = options.beforeSynthesis;
  let shownBeforeSynthesis = false;
  const council: Omit<RunCouncilOptions, 'onEvent'> =
    before === undefined
      ? options.council
      : {
          ...options.council,
          onAnswer: (result) => {
            answers.push(result);
            options.council.onAnswer?.(result);
          },
          onReview: (result) => {
            reviews.push(result);
            options.council.onReview?.(result);
          },
        };
  let state = createCouncilProgress({
    members: options.members,
    chairman: options.chairman,
    startedAt: Date.now(),
    label: options.label,
  });
  const display = createLiveDisplay({
    write: ctx.io.stderr,
    enabled: liveDisplayEnabled(ctx),
    render: () =>
      renderProgressFrame(state, {
        now: Date.now(),
        style: ctx.err,
        width: ctx.io.columns !== undefined && ctx.io.columns >= 20 ? ctx.io.columns : 100,
      }),
  });
  const lines = liveDisplayEnabled(ctx) ? null : createProgressLines({ write: ctx.io.stderr });
  // The display redraws in place on the terminal that now shows the answer: its last frame stays above it.
  const streamTo = (printer: SynthesisStreamPrinter) => (part: Parameters<SynthesisStreamPrinter['write']>[0]) => {
    if (display.active) {
      // The last frame stays on screen: the chairman's cell says where its answer goes, not a spinner stopped mid-turn.
      state = applyProgressEvent(state, { type: 'synthesis-streaming', at: Date.now() });
      display.stop();
      ctx.io.stderr('\n');
    }
    // The plain lines too: no ticker and no stage-3 line in the middle of the answer, even when stderr is stdout.
    lines?.hold();
    if (before !== undefined && !shownBeforeSynthesis) {
      shownBeforeSynthesis = true;
      const place = (member: string) => {
        const i = options.members.indexOf(member);
        return i === -1 ? Number.POSITIVE_INFINITY : i;
      };
      before({ stage1: [...answers].sort((a, b) => place(a.member) - place(b.member)), stage2: [...reviews] });
    }
    printer.write(part);
  };
  lines?.start();
  let session: CouncilSession;
  try {
    session = await runCouncil({
      ...council,
      onEvent: (event) => {
        const progress = progressFromCouncilEvent(event, Date.now());
        if (progress) state = applyProgressEvent(state, progress);
        if (event.type !== 'usage') display.refresh();
        lines?.onEvent(event);
        options.onEvent?.(event);
      },
      ...(options.printer === undefined ? {} : { onSynthesisText: streamTo(options.printer) }),
    });
  } catch (error) {
    lines?.release();
    throw error;
  } finally {
    lines?.stop();
    const drawn = display.active;
    display.stop();
    if (drawn) ctx.io.stderr('\n');
  }
  // The answer is complete on stdout before "stage 3 … done" and the rest of the kept lines.
  const answerStreamed = options.printer?.finish(session) ?? false;
  lines?.release();
  return { session, answerStreamed, shownBeforeSynthesis };
}
