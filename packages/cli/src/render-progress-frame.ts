import type { CellState, CouncilProgress } from './council-progress.js';
import type { Style } from './create-style.js';
import { stripAnsi } from './create-style.js';
import { STAGE_NAMES } from './stage-labels.js';

const SPINNER = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
const CELL_WIDTH = 20;

/** Seconds with one decimal: 1234 ms → "1.2s". */
export function formatSeconds(ms: number): string {
  return `${(Math.max(0, ms) / 1000).toFixed(1)}s`;
}

function formatCost(costUsd: number | null): string {
  if (costUsd === null) return 'cost n/a';
  return `$${costUsd.toFixed(costUsd < 0.01 ? 4 : 2)}`;
}

function cell(state: CellState, now: number, style: Style): string {
  switch (state.status) {
    case 'waiting':
      return style.dim('· waiting');
    case 'skipped':
      return style.dim('– skipped');
    case 'queued':
      // Waiting for its endpoint's free slot (its deadline has not started): not hung, not running yet.
      return style.yellow(`… queued ${formatSeconds(now - state.since)}`);
    case 'running': {
      const spin = SPINNER[Math.floor((now - state.startedAt) / 80) % SPINNER.length]!;
      const retry = state.attempt > 1 ? ` (retry ${state.attempt - 1})` : '';
      return style.cyan(`${spin} ${formatSeconds(now - state.startedAt)}${retry}`);
    }
    case 'done':
      return style.green(`✓ ${formatSeconds(state.ms)}`);
    case 'failed':
      return style.red(`✗ ${state.reason}`);
    case 'streaming':
      return style.cyan('↓ writing the answer below');
  }
}

/** "3 of 4 rankings read", "0 of 1 ranking read". */
export function rankingsRead(r: { read: number; reviewed: number }): string {
  return `${r.read} of ${r.reviewed} ranking${r.reviewed === 1 ? '' : 's'} read`;
}

function pad(text: string, width: number): string {
  const visible = stripAnsi(text).length;
  return visible >= width ? text : text + ' '.repeat(width - visible);
}

function fit(line: string, width: number): string {
  // Only plain lines are cut; a styled line that is too wide is cut on its visible text.
  const plain = stripAnsi(line);
  if (plain.length <= width) return line;
  return `${plain.slice(0, Math.max(0, width - 1))}…`;
}

/**
 * One frame of the live display as text: a header with the label, elapsed time, tokens and cost; one
 * row per member with its stage 1 and stage 2 state; the chairman's stage 3. Lines never exceed `width`.
 */
export function renderProgressFrame(
  state: CouncilProgress,
  options: { now: number; style: Style; width?: number },
): string {
  const { now, style } = options;
  const width = options.width ?? 100;
  const nameWidth = Math.min(32, Math.max(8, ...state.members.map((m) => m.length)));
  const stageName = state.stage === 'done' ? 'done' : `stage ${state.stage}: ${STAGE_NAMES[state.stage]}`;
  const header = [
    style.bold('Council'),
    state.label,
    stageName,
    formatSeconds(now - state.startedAt),
    `${state.tokens.toLocaleString('en-US')} tokens`,
    formatCost(state.costUsd),
  ].join(' · ');
  const name = (m: string) => (m.length > nameWidth ? `${m.slice(0, nameWidth - 1)}…` : m);
  // Once stage 2 is over, how many of its rankings could be read: "4 reviewed" alone would hide that none was.
  const r = state.rankings;
  const read = r === undefined ? '' : (r.read === r.reviewed ? style.dim : style.yellow)(` · ${rankingsRead(r)}`);
  const lines = [
    header,
    style.dim(`  ${pad('member', nameWidth)}  ${pad('stage 1 answer', CELL_WIDTH)}  stage 2 review`) + read,
  ];
  for (const member of state.members) {
    const answer = state.answers[member] ?? { status: 'waiting' };
    const review = state.reviews[member] ?? { status: 'waiting' };
    lines.push(
      `  ${pad(name(member), nameWidth)}  ${pad(cell(answer, now, style), CELL_WIDTH)}  ${cell(review, now, style)}`,
    );
  }
  lines.push(
    `  ${pad(`chairman ${state.chairman}`, nameWidth + CELL_WIDTH + 2)}  ${cell(state.synthesis, now, style)}`,
  );
  return lines.map((l) => fit(l, width)).join('\n') + '\n';
}
