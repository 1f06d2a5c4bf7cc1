import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { CommandContext } from '../command-context.js';
import { registerBiasReportTool } from './bias-report-tool.js';
import { registerConsultCouncilTool } from './consult-council-tool.js';
import { registerLeaderboardTool } from './leaderboard-tool.js';
import { registerSessionTools } from './session-tools.js';
import type { McpLog } from './tool-context.js';

/**
 * The SDK reports a tool's invalid input as a tool error with one line per problem; Council's tool errors are one
 * line, so the problems are joined. (It patches the SDK's own method, when it has it: a later SDK without it
 * keeps its own wording.)
 */
function joinInputProblems(server: McpServer): void {
  const target = server as unknown as { createToolError?: (message: string) => CallToolResult };
  const original = target.createToolError;
  if (typeof original !== 'function') return;
  const problems = (message: string): string =>
    message
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== '')
      .join('; ');
  target.createToolError = (message) => original.call(server, problems(message));
}

/**
 * The council as an MCP server: the tools `consult_council`, `bias_report`, `leaderboard`, `get_session` and
 * `list_sessions`, and the resources `council://sessions/{id}`. One server per client connection; each tool
 * runs the command it stands for with `ctx`'s environment and home.
 */
export function createCouncilMcpServer(options: { ctx: CommandContext; log: McpLog }): McpServer {
  const server = new McpServer(
    { name: 'council', title: 'Council', version: options.ctx.version },
    {
      instructions:
        "consult_council convenes several LLMs on one question (answers, blind peer review, a chairman's synthesis) and reports how fair the reviewing was; it takes seconds to minutes, so send a progress token. bias_report, leaderboard, list_sessions and get_session read what earlier councils saved.",
    },
  );
  joinInputProblems(server);
  registerConsultCouncilTool(server, options);
  registerBiasReportTool(server, options);
  registerLeaderboardTool(server, options);
  registerSessionTools(server, options);
  return server;
}
