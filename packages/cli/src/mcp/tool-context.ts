import type { CommandContext } from '../command-context.js';
import { createStyle } from '../create-style.js';

/** Writes one line to the MCP server's log (stderr). */
export type McpLog = (line: string) => void;

/**
 * The context a tool runs a command in: stdout belongs to the protocol, so what a command would print there
 * goes to `stdout` (captured, or dropped); what it writes to stderr (notes, "Saved …") goes to the log line
 * by line. No colours, no live display.
 */
export function toolContext(
  ctx: CommandContext,
  options: { log: McpLog; stdout?: (text: string) => void },
): CommandContext {
  return {
    ...ctx,
    io: {
      stdout: options.stdout ?? (() => undefined),
      stderr: (text) => {
        for (const line of text.split('\n')) if (line.trim() !== '') options.log(line);
      },
      stdoutIsTTY: false,
      stderrIsTTY: false,
    },
    out: createStyle(false),
    err: createStyle(false),
  };
}

/** Runs a command with `--json` in a tool context and returns the one document it printed, parsed. */
export async function runForJson(
  ctx: CommandContext,
  options: { log: McpLog; run: (ctx: CommandContext) => Promise<number> },
): Promise<unknown> {
  const chunks: string[] = [];
  await options.run(toolContext(ctx, { log: options.log, stdout: (text) => void chunks.push(text) }));
  return JSON.parse(chunks.join('')) as unknown;
}
