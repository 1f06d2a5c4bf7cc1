import type { FollowUp } from '@council/core';
import { CliError } from './cli-error.js';
import type { CommandContext } from './command-context.js';
import { findSession, loadHistory } from './commands/history-command.js';
import type { CouncilSettings } from './settings/council-settings.js';

/**
 * What `ask --continue [SESSION|last]` carries over: the chosen session of the history log (`last`, an id, or a
 * unique prefix of one), its synthesis as the previous answer, and its conversation id (its own id when it
 * started the conversation). The history keeps no question texts, so the previous question is not carried.
 */
export async function followUpFromHistory(options: {
  ref: string;
  ctx: CommandContext;
  settings: CouncilSettings;
}): Promise<FollowUp> {
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
  return {
    conversationId: session.conversation?.id ?? session.sessionId,
    previousSessionId: session.sessionId,
    previousAnswer: answer,
  };
}
