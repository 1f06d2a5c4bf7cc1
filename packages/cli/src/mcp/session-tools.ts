import { ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { CallToolResult, ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod';
import type { CommandContext } from '../command-context.js';
import { createStyle } from '../create-style.js';
import type { HistoryEntry } from '../history-entry.js';
import { renderSessionText } from '../render-session-text.js';
import { sessionDocument } from '../session-document.js';
import type { McpLog } from './tool-context.js';
import { runForJson, toolContext } from './tool-context.js';
import { toolError } from './tool-error.js';

export const getSessionInput = {
  id: z
    .string()
    .trim()
    .min(1, 'id is empty')
    .describe(
      'A session id from consult_council or list_sessions, a unique prefix of one, or "last" (the newest saved session), as `council history show <id|last>`.',
    ),
};

/**
 * The document `council history show <id> --json` prints (with the question the local history kept, or null). Loose, and keys that
 * older history lines may lack are optional, so that a key added to the session document refuses no session.
 */
export const getSessionOutput = {
  sessionId: z.string(),
  timestamp: z.string(),
  config: z.unknown(),
  stage1: z.array(z.unknown()),
  stage2: z.array(z.unknown()),
  leaderboard: z.array(z.unknown()),
  agreement: z.unknown(),
  synthesis: z.unknown(),
  biasAudit: z.unknown(),
  biasIndicators: z.unknown(),
  excluded: z.array(z.unknown()),
  usage: z.unknown(),
  warnings: z.array(z.string()).optional(),
  question: z.string().nullable().optional(),
  queryMetadata: z.unknown(),
  simulated: z.boolean(),
};

export const listSessionsInput = {
  limit: z.number().int().min(1).max(1000).optional().describe('The most recent n sessions (default 20).'),
};

export const listSessionsOutput = {
  sessions: z.array(
    z.looseObject({
      sessionId: z.string(),
      timestamp: z.string(),
      title: z.string().nullable().optional(),
      members: z.array(z.string()),
      winner: z.string().nullable(),
      category: z.string().nullable(),
      simulated: z.boolean(),
      tokens: z.number(),
      costUsd: z.number().nullable(),
    }),
  ),
};

type GetSessionInput = z.infer<z.ZodObject<typeof getSessionInput>>;
type ListSessionsInput = z.infer<z.ZodObject<typeof listSessionsInput>>;
type SessionSummary = z.infer<typeof listSessionsOutput.sessions>[number];

function sessionJson(entry: HistoryEntry) {
  return {
    ...sessionDocument(entry.session),
    question: entry.question ?? null,
    queryMetadata: entry.query_metadata,
    simulated: entry.simulated,
  };
}

async function findEntry(ctx: CommandContext, options: { id: string; log: McpLog }): Promise<HistoryEntry> {
  const { findSession, loadHistory } = await import('../commands/history-command.js');
  const { entries } = await loadHistory(toolContext(ctx, { log: options.log }));
  return findSession(entries, options.id);
}

/** `get_session` and `list_sessions` (the history, as `council history show|list --json`), and `council://sessions/{id}`. */
export function registerSessionTools(server: McpServer, options: { ctx: CommandContext; log: McpLog }): void {
  const { ctx, log } = options;
  server.registerTool(
    'get_session',
    {
      title: 'Get a saved session',
      description:
        'One saved council session by id (a unique prefix, or "last"): its question (when the local history kept it), the answers, reviews, leaderboard, synthesis, bias indicators, exclusions and cost.',
      inputSchema: getSessionInput,
      outputSchema: z.looseObject(getSessionOutput),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async (input: GetSessionInput): Promise<CallToolResult> => {
      try {
        const entry = await findEntry(ctx, { id: input.id, log });
        const question = entry.question === undefined ? '' : `Question: ${entry.question}\n`;
        const text = `Session ${entry.session.sessionId} · ${entry.session.timestamp}\n${question}\n${renderSessionText({ session: entry.session, style: createStyle(false), simulated: entry.simulated })}`;
        return { content: [{ type: 'text', text }], structuredContent: sessionJson(entry) };
      } catch (error) {
        return toolError(error, log);
      }
    },
  );

  server.registerTool(
    'list_sessions',
    {
      title: 'List saved sessions',
      description:
        "The most recent saved council sessions, follow-ups under their conversation: id, time, the question's first line, members, leader, category, tokens and cost.",
      inputSchema: listSessionsInput,
      outputSchema: listSessionsOutput,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async (input: ListSessionsInput): Promise<CallToolResult> => {
      try {
        const { runHistoryCommand } = await import('../commands/history-command.js');
        const sessions = (await runForJson(ctx, {
          log,
          run: (c) => runHistoryCommand({ action: 'list', limit: input.limit ?? 20, json: true }, c),
        })) as SessionSummary[];
        const text =
          sessions.length === 0
            ? 'No saved sessions yet.'
            : sessions
                .map(
                  (s) =>
                    `${s.sessionId} · ${s.timestamp}${s.title ? ` · ${s.title}` : ''} · ${s.members.length} members · leader ${s.winner ?? 'n/a'}${s.simulated ? ' · simulated' : ''}`,
                )
                .join('\n');
        return { content: [{ type: 'text', text }], structuredContent: { sessions } };
      } catch (error) {
        return toolError(error, log);
      }
    },
  );

  server.registerResource(
    'session',
    new ResourceTemplate('council://sessions/{id}', {
      list: async () => {
        const { loadHistory } = await import('../commands/history-command.js');
        const { entries } = await loadHistory(toolContext(ctx, { log }));
        return {
          resources: entries
            .slice(-50)
            .reverse()
            .map((e) => ({
              uri: `council://sessions/${e.session.sessionId}`,
              name: `session ${e.session.sessionId.slice(0, 8)} (${e.session.timestamp})`,
              mimeType: 'application/json',
            })),
        };
      },
    }),
    {
      title: 'Council session',
      description: 'A saved council session as JSON (as `council history show <id> --json`).',
      mimeType: 'application/json',
    },
    async (uri, variables): Promise<ReadResourceResult> => {
      const id = String(Array.isArray(variables['id']) ? variables['id'][0] : variables['id']);
      let decoded: string;
      try {
        decoded = decodeURIComponent(id);
      } catch {
        // `%E0` and the like are no UTF-8: say so in one line instead of a raw URIError.
        throw new McpError(
          ErrorCode.InvalidParams,
          `"${id}" in ${uri.href} is not a percent-encoded session id: read council://sessions/<id> with an id from list_sessions.`,
        );
      }
      const entry = await findEntry(ctx, { id: decoded, log });
      return {
        contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(sessionJson(entry), null, 2) }],
      };
    },
  );
}
