import type { CouncilCallStage } from './council-call-context.js';

const memberHeader = /^[#>*\-\s]*Model:\s*([^\s*]+?)[\s*:]*$/;

/**
 * Guesses a council stage from prompt text alone: `chairman` when it mentions `contributors` and has a
 * `Model: <id>` line, `review` when it contains `FINAL RANKING`, otherwise `answer`.
 *
 * @deprecated The simulated provider no longer reads prompts: it plays from `GenerateOptions.council`,
 * which `@council/core` fills. This stays only for `@council/cli`'s HTTP test server (which sees only
 * request bodies); move it there and delete it here.
 */
export function detectSimulatedRole(prompt: string): CouncilCallStage {
  if (/\bcontributors\b/.test(prompt) && prompt.split(/\r?\n/).some((line) => memberHeader.test(line.trim()))) return 'chairman';
  if (prompt.includes('FINAL RANKING')) return 'review';
  return 'answer';
}
