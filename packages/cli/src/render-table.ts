import Table from 'cli-table3';
import { stripAnsi } from './create-style.js';
import type { CliIo } from './cli-io.js';
import type { Style } from './create-style.js';

export type TableAlign = 'left' | 'right' | 'center';

/** The fewest characters a wrapped column keeps per line: narrower, a sentence reads one word a line. */
const MIN_WRAPPED_WIDTH = 20;

/**
 * A terminal table (cli-table3). Colours in the header only when the style has them, so redirected
 * output holds no escape codes. Cells are strings already formatted by the caller.
 *
 * `fit` keeps a table within a terminal's `width`: when its widest line would be longer, the `wrap` column's text
 * wraps at word boundaries onto more lines (never narrower than 20 characters, so a very narrow terminal still wraps
 * its lines rather than the words). Give it only where the reader is a terminal: piped output keeps one row a line.
 */
export function renderTable(options: {
  head: readonly string[];
  rows: readonly (readonly string[])[];
  style: Style;
  align?: readonly TableAlign[];
  fit?: { width: number; wrap: number };
}): string {
  const colWidths = options.fit ? fittedWidths(options.head, options.rows, options.fit) : undefined;
  const table = new Table({
    head: options.head.map((h) => options.style.bold(h)),
    ...(options.align ? { colAligns: [...options.align] } : {}),
    ...(colWidths ? { colWidths, wordWrap: true, wrapOnWordBoundary: true } : {}),
    style: { head: [], border: [], 'padding-left': 1, 'padding-right': 1, compact: true },
  });
  for (const row of options.rows) table.push([...row]);
  return `${table.toString()}\n`;
}

/** Column widths (cell text plus its two spaces of padding) for `fit`, or undefined when the table fits as it is. */
function fittedWidths(
  head: readonly string[],
  rows: readonly (readonly string[])[],
  fit: { width: number; wrap: number },
): (number | null)[] | undefined {
  const widths = head.map((h, column) =>
    Math.max(
      ...[h, ...rows.map((row) => row[column] ?? '')].map((cell) =>
        Math.max(
          ...stripAnsi(cell)
            .split('\n')
            .map((line) => [...line].length),
        ),
      ),
    ),
  );
  // One border character before each column and one after the last; a padding space on each side of every cell.
  const total = widths.reduce((sum, w) => sum + w + 3, 1);
  if (total <= fit.width) return undefined;
  const wrapped = widths[fit.wrap]!;
  const room = Math.max(MIN_WRAPPED_WIDTH, wrapped - (total - fit.width));
  if (room >= wrapped) return undefined;
  return widths.map((_, column) => (column === fit.wrap ? room + 2 : null));
}

/**
 * `renderTable`'s `fit` for a command's stdout: its terminal's width when stdout is a terminal of known width, so that
 * column `wrap` wraps there; nothing when stdout is a pipe or a file (a script reads one row a line).
 */
export function terminalFit(
  ctx: { io: Pick<CliIo, 'stdoutIsTTY' | 'columns'> },
  wrap: number,
): { fit?: { width: number; wrap: number } } {
  return ctx.io.stdoutIsTTY && ctx.io.columns !== undefined ? { fit: { width: ctx.io.columns, wrap } } : {};
}
