import type { CouncilCallStage } from '@council/providers';

const memberHeader = /^[#>*\-\s]*Model:\s*([^\s*]+?)[\s*:]*$/;

/**
 * The council stage a request to the test server belongs to, read from its prompt text (an HTTP
 * provider sends only the messages): `chairman` when the prompt mentions `contributors` and has a
 * `Model: <id>` line, `review` when it contains `FINAL RANKING` or asks for a structured review's `"evaluations"`
 * (the instructions of core's `structuredOutputFormat`), otherwise `answer`. This reads core's
 * prompt contract (see @council/core's README), so it lives with the test double, not in a provider.
 */
export function councilRequestStage(prompt: string): CouncilCallStage {
  if (/\bcontributors\b/.test(prompt) && prompt.split(/\r?\n/).some((line) => memberHeader.test(line.trim())))
    return 'chairman';
  if (prompt.includes('FINAL RANKING') || prompt.includes('Under "evaluations"')) return 'review';
  return 'answer';
}
