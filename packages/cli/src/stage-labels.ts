import type { CouncilStage } from '@council/core';

/** Each stage's name in progress output (the plain lines, the live display, the MCP server's notifications). */
export const STAGE_NAMES: Readonly<Record<CouncilStage, string>> = { 1: 'answers', 2: 'reviews', 3: 'synthesis' };

/** What a member did when its call in a stage finished: "test/alpha answered". */
export const STAGE_DONE_VERBS: Readonly<Record<CouncilStage, string>> = {
  1: 'answered',
  2: 'reviewed',
  3: 'synthesised',
};
