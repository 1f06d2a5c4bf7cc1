import Table from 'cli-table3';
import type { Style } from './create-style.js';

export type TableAlign = 'left' | 'right' | 'center';

/**
 * A terminal table (cli-table3). Colours in the header only when the style has them, so redirected
 * output holds no escape codes. Cells are strings already formatted by the caller.
 */
export function renderTable(options: {
  head: readonly string[];
  rows: readonly (readonly string[])[];
  style: Style;
  align?: readonly TableAlign[];
}): string {
  const table = new Table({
    head: options.head.map((h) => options.style.bold(h)),
    ...(options.align ? { colAligns: [...options.align] } : {}),
    style: { head: [], border: [], 'padding-left': 1, 'padding-right': 1, compact: true },
  });
  for (const row of options.rows) table.push([...row]);
  return `${table.toString()}\n`;
}
