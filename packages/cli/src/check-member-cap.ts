import { MAX_COUNCIL_MEMBERS } from '@council/core';
import { CliError } from './cli-error.js';

/**
 * Refuses a council over the cap (`MAX_COUNCIL_MEMBERS` of @council/core: 32, the same for ask, batch, serve and MCP)
 * with a usage error naming the cap and where the members came from; `count` is after pools were expanded.
 */
export function checkMemberCap(options: { count: number; source: string }): void {
  if (options.count <= MAX_COUNCIL_MEMBERS) return;
  throw new CliError({
    code: 'USAGE',
    message: `A council has at most ${MAX_COUNCIL_MEMBERS} members (got ${options.count} from ${options.source}, pools counted as their models). Every reviewer reads every member's answer, so the reviews grow with the square of the council: choose at most ${MAX_COUNCIL_MEMBERS}.`,
  });
}
