import type { CouncilConfig } from './council-config.js';
import { fillTemplate } from './fill-template.js';

/** What a follow-up session carries over from the session it continues (`RunCouncilOptions.followUp`). */
export interface FollowUp {
  /** The conversation's id: the first session's id, carried from session to session. */
  conversationId: string;
  previousSessionId: string;
  /** The previous session's synthesis (never its question: the history does not keep question texts). */
  previousAnswer: string;
}

/**
 * The question as every stage of a follow-up shows it: `config.followUpPrompt` with the previous answer between
 * the session's boundary markers (so it reads as context, not instructions) and the follow-up question.
 */
export function buildFollowUpQuery(options: {
  config: CouncilConfig;
  query: string;
  followUp: FollowUp;
  boundary: string;
}): string {
  return fillTemplate(options.config.followUpPrompt, {
    previous_answer: options.followUp.previousAnswer.trim(),
    query: options.query,
    boundary: options.boundary,
  });
}
