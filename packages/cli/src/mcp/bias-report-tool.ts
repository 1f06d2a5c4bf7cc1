import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod';
import type { CommandContext } from '../command-context.js';
import { createStyle } from '../create-style.js';
import type { McpLog } from './tool-context.js';
import { toolContext } from './tool-context.js';
import { toolError } from './tool-error.js';

export const biasReportInput = {
  sessions: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe('Most recent sessions kept. Default LLM_COUNCIL_BIAS_WINDOW_SESSIONS (100).'),
  days: z.number().int().min(1).optional().describe('Days kept. Default LLM_COUNCIL_BIAS_WINDOW_DAYS (30).'),
  model: z.string().min(1).optional().describe('Only records about this model.'),
  configVersion: z.string().min(1).optional().describe('Only records of this configuration version.'),
};

const flag = z.looseObject({
  code: z.string(),
  subject: z.string().nullable(),
  metric: z.string(),
  estimate: z.number(),
  ciLower: z.number(),
  ciUpper: z.number(),
  margin: z.number(),
  pValue: z.number(),
  adjustedPValue: z.number(),
});

/** The report's summary: the window and its evidence tier, each metric family with its interval, the flags and notes. */
export const biasReportOutput = {
  simulated: z.boolean(),
  window: z.looseObject({
    sessions: z.number(),
    observations: z.number(),
    start: z.string().nullable(),
    end: z.string().nullable(),
  }),
  confidence: z
    .string()
    .describe(
      'The evidence tier, from how many sessions the window holds: insufficient_data (below 10: no figure), preliminary (10–19), moderate (20–49), high (50 or more). Not a confidence level: every interval is a 95% interval.',
    ),
  meetsMinimum: z.boolean(),
  level: z.number(),
  length: z.unknown(),
  position: z.unknown(),
  reviewers: z.array(z.unknown()),
  selfPreference: z.array(z.unknown()),
  anchoring: z.unknown(),
  flags: z.array(flag),
  notes: z.array(z.string()),
  input: z.object({
    records: z.number(),
    kept: z.number(),
    skipped: z.number(),
    unreadSessions: z
      .object({ sessions: z.number(), records: z.number(), sessionIds: z.array(z.string()) })
      .describe('Sessions of the window left out of the statistics because no review of theirs could be read.'),
  }),
};

type BiasReportInput = z.infer<z.ZodObject<typeof biasReportInput>>;

/** `bias_report`: ADR-018's cross-session report over the bias store, as `council bias-report` computes it. */
export function registerBiasReportTool(server: McpServer, options: { ctx: CommandContext; log: McpLog }): void {
  const { ctx, log } = options;
  server.registerTool(
    'bias_report',
    {
      title: 'Bias report',
      description:
        "How fair the council's reviewing has been across saved sessions: position, length, reviewer offsets, self-preference and anchoring, each with N, a 95% interval and an evidence tier (how many sessions it rests on), and the flags raised.",
      inputSchema: biasReportInput,
      outputSchema: biasReportOutput,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async (input: BiasReportInput): Promise<CallToolResult> => {
      try {
        const { computeBiasReport } = await import('../commands/bias-report-command.js');
        const { renderBiasReportText } = await import('../render-bias-report-text.js');
        const { document } = await computeBiasReport(input, toolContext(ctx, { log }));
        const r = document.report;
        const result = {
          simulated: document.simulated,
          window: r.window,
          confidence: r.confidence,
          meetsMinimum: r.meetsMinimum,
          level: r.level,
          length: r.length,
          position: r.position,
          reviewers: r.reviewers,
          selfPreference: r.selfPreference,
          anchoring: r.anchoring,
          flags: r.flags,
          notes: r.notes,
          input: {
            records: document.input.records,
            kept: document.input.kept,
            skipped: document.input.skipped,
            unreadSessions: document.input.unreadSessions,
          },
        };
        const text = renderBiasReportText({
          report: r,
          style: createStyle(false),
          verbose: false,
          source: document.input.path,
          simulated: document.simulated,
          unreadSessions: document.input.unreadSessions,
        });
        return { content: [{ type: 'text', text }], structuredContent: result };
      } catch (error) {
        return toolError(error, log);
      }
    },
  );
}
