import type { FollowUp } from '@council/core';
import { CliError } from './cli-error.js';
import type { CommandContext } from './command-context.js';
import { findSession, loadHistory } from './commands/history-command.js';
import type { CouncilSettings } from './settings/council-settings.js';

/** The council of the session a follow-up continues, as its history entry recorded it. */
export interface ContinuedCouncil {
  /** Member ids (model ids, or personality ids seated as their personality), in order. */
  members: string[];
  chairman: string;
  strategy: string;
  goal: string | null;
}

/**
 * What `ask --continue [SESSION|last]` carries over: the chosen session of the history log (`last`, an id, or a
 * unique prefix of one), its synthesis as the previous answer, its conversation id (its own id when it started the
 * conversation), and its council (members, chairman, strategy and goal), which the follow-up keeps unless flags
 * say otherwise, as `llm -c` keeps the model. The previous answer is the context; the previous question (kept in the
 * history unless `history_questions: false`) is not sent again.
 */
export async function followUpFromHistory(options: {
  ref: string;
  ctx: CommandContext;
  settings: CouncilSettings;
}): Promise<{ followUp: FollowUp; council: ContinuedCouncil }> {
  // The command's settings (with its --org), not the environment's alone.
  const { path, entries } = await loadHistory(options.ctx, options.settings);
  if (entries.length === 0) {
    throw new CliError({
      code: 'USAGE',
      message: `Nothing to continue: the history (${path}) has no session yet. Ask a question first (sessions are saved at consent level 1 and above, and not with --no-persist).`,
    });
  }
  const session = findSession(entries, options.ref).session;
  const answer = session.synthesis?.text ?? '';
  if (answer.trim() === '') {
    throw new CliError({
      code: 'USAGE',
      message: `Session ${session.sessionId} has no synthesis to continue from; continue another one (council history list shows them).`,
    });
  }
  const { members, chairman, strategy, goal } = session.config;
  return {
    followUp: {
      conversationId: session.conversation?.id ?? session.sessionId,
      previousSessionId: session.sessionId,
      previousAnswer: answer,
    },
    council: { members: [...members], chairman, strategy, goal: goal ?? null },
  };
}
