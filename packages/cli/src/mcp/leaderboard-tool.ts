import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod';
import type { CommandContext } from '../command-context.js';
import type { LeaderboardDocument } from '../commands/leaderboard-command.js';
import type { McpLog } from './tool-context.js';
import { runForJson } from './tool-context.js';
import { toolError } from './tool-error.js';
import { countNoun } from '../count-noun.js';

export const leaderboardInput = {
  days: z.number().int().min(1).optional().describe('Only sessions of the last n days.'),
  category: z
    .enum(['coding', 'math', 'writing', 'analysis', 'general'])
    .optional()
    .describe('Only sessions of this query category.'),
};

/** The document `council leaderboard --json` prints. */
export const leaderboardOutput = {
  sessions: z.number(),
  window: z.object({ since: z.string().nullable(), until: z.string() }),
  category: z.string().nullable(),
  borda: z.array(z.looseObject({ candidate: z.string(), rank: z.number(), aggregateBorda: z.number() })),
  bradleyTerry: z.array(z.looseObject({ candidate: z.string(), rank: z.number(), rating: z.number() })),
};

type LeaderboardInput = z.infer<z.ZodObject<typeof leaderboardInput>>;

function interval(i: { lower: number; upper: number } | null, digits: number): string {
  return i === null ? 'no interval' : `95% interval [${i.lower.toFixed(digits)}, ${i.upper.toFixed(digits)}]`;
}

/** The standings in a few lines. */
export function leaderboardText(d: LeaderboardDocument): string {
  if (d.sessions === 0)
    return `No sessions in the history${d.category === null ? '' : ` in category ${d.category}`}${d.window.since === null ? '' : ` since ${d.window.since}`}.`;
  const lines = [
    `Cross-query leaderboard over ${countNoun(d.sessions, 'session')}${d.category === null ? '' : ` (category ${d.category})`}:`,
  ];
  for (const b of d.borda)
    lines.push(
      `${b.rank}. ${b.candidate}: mean Borda ${b.aggregateBorda.toFixed(3)}, ${interval(b.interval, 3)}, ${countNoun(b.appearances, 'session')}, ${countNoun(b.totalWins, 'win')}${b.category ? ` [${b.category}]` : ''}`,
    );
  if (d.bradleyTerry.length > 0) {
    lines.push('Bradley–Terry ratings (Elo scale):');
    for (const b of d.bradleyTerry)
      lines.push(
        `${b.rank}. ${b.candidate}: ${b.rating.toFixed(0)}, ${interval(b.interval, 0)}, P(best) ${b.pBest.toFixed(2)}`,
      );
  }
  return lines.join('\n');
}

/** `leaderboard`: cross-query standings from the history, exactly as `council leaderboard --json`. */
export function registerLeaderboardTool(server: McpServer, options: { ctx: CommandContext; log: McpLog }): void {
  const { ctx, log } = options;
  server.registerTool(
    'leaderboard',
    {
      title: 'Leaderboard',
      description:
        'Cross-query standings from the saved sessions: mean Borda score with a bootstrap interval, and Bradley–Terry ratings with intervals and P(best).',
      inputSchema: leaderboardInput,
      outputSchema: z.looseObject(leaderboardOutput),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async (input: LeaderboardInput): Promise<CallToolResult> => {
      try {
        const { runLeaderboardCommand } = await import('../commands/leaderboard-command.js');
        const document = (await runForJson(ctx, {
          log,
          run: (c) => runLeaderboardCommand({ ...input, json: true }, c),
        })) as LeaderboardDocument;
        return { content: [{ type: 'text', text: leaderboardText(document) }], structuredContent: { ...document } };
      } catch (error) {
        return toolError(error, log);
      }
    },
  );
}
