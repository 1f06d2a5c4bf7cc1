import { scrubSecrets } from '@council/providers';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { McpLog } from './tool-context.js';

function errorCode(error: unknown): string | undefined {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' ? code : undefined;
}

/** An error's message as one line (a list of problems joined), as `council` reports errors on stderr. */
export function oneLine(message: string): string {
  return message
    .split('\n')
    .map((line) => line.trim().replace(/^- /, ''))
    .filter((line) => line !== '')
    .join(' ');
}

/**
 * A failure as a tool error: `isError` with one line saying what was wrong (a missing key, an unknown model,
 * quorum not met, a cap reached), so the client's model can read it and the server goes on serving. An error
 * no package names (a bug) is logged with its stack and reported as an internal error.
 */
export function toolError(error: unknown, log: McpLog): CallToolResult {
  // Scrubbed of URL credentials and query keys: a guard at the tool's answer, behind the scrubbing at each source.
  const message = scrubSecrets(error instanceof Error ? error.message : String(error));
  let reason = oneLine(message);
  if (errorCode(error) === undefined) {
    log(`internal error: ${error instanceof Error && error.stack ? error.stack : reason}`);
    reason = `Internal error in council mcp: ${reason}`;
  }
  return { isError: true, content: [{ type: 'text', text: reason }] };
}
