import type { CliCommand } from '../cli-command.js';
import {
  askConcurrencyOption,
  councilCallOptions,
  councilMemberOptions,
  councilSaveOptions,
  councilStageOptions,
  parseCouncilRunFlags,
  parseEndpointConcurrency,
} from '../parse-council-run-flags.js';
import { argText, parseDollarOption, parseStringOption } from '../parse-option.js';
import { parseShowOption } from '../session-show.js';
import type { AskCommandOptions } from './ask-command.js';
import { evidenceOptions, parseVerdictFlags, verdictOptions } from '../verdict-flags.js';
import { CliError } from '../cli-error.js';

/** `ask`'s options as parsed: the question may still be `-`, absent (stdin), or in `--file`. */
export type AskCliOptions = Omit<AskCommandOptions, 'question'> & {
  question: string | undefined;
  file: string | undefined;
};

/** `last` or what could be a session id or a prefix of one (hex digits and dashes, at least 4). */
const SESSION_REF = /^(last|[0-9a-f]{4,}(-[0-9a-f]*)*)$/i;

/**
 * `--continue` takes an optional session, so in `ask --continue "a follow-up?"` the question arrives as its value:
 * a value that is not `last` or an id, with no question after it, is the question (continuing the last session).
 */
function parseContinue(
  question: string | undefined,
  value: unknown,
): { question: string | undefined; continueFrom?: string } {
  if (value === undefined || value === false) return { question };
  if (value === true) return { question, continueFrom: 'last' };
  const text = argText(value) ?? parseStringOption('continue', value)!;
  if (question === undefined && !SESSION_REF.test(text.trim())) return { question: text, continueFrom: 'last' };
  return { question, continueFrom: text.trim() };
}

export const askCliCommand: CliCommand<AskCliOptions> = {
  name: 'ask',
  args: '[question]',
  description: 'Convene the council on one question: live progress, then the answer, leaderboard and bias indicators',
  options: [
    {
      flags: '--file <path>',
      description:
        'Read the question from this UTF-8 file (at most 1 MiB); or give - as the question, or pipe it in, to read stdin',
    },
    ...councilMemberOptions,
    {
      flags: '--order <mode>',
      description: 'How answers are ordered for each reviewer: shared, per-reviewer or latin-square',
    },
    { flags: '--seed <n>', description: 'Seed the orders and labels (default LLM_COUNCIL_RANDOM_SEED)' },
    ...councilCallOptions,
    askConcurrencyOption,
    ...councilStageOptions,
    {
      flags: '--continue [session]',
      description:
        'Ask a follow-up: the members see the answer of that session of the history (an id, a prefix of one, or last: the default) as context; the sessions share a conversation id',
    },
    {
      flags: '--max-cost <usd>',
      description:
        'Stop before a stage (review, synthesis) whose estimated cost would take the session past this many US dollars, keeping what finished (default: config.yaml max_cost_usd, none)',
    },
    ...verdictOptions,
    ...evidenceOptions,
    { flags: '--org <id>', description: "Apply this organization's configuration (default LLM_COUNCIL_ORG)" },
    ...councilSaveOptions,
    {
      flags: '--show <what>',
      description:
        "What the text shows beside the synthesis: answers (each member's answer, Markdown rendered on a colour terminal), reviews (each reviewer's scores, critiques and ranking, named after the session), all, or none; a comma list works (answers,reviews). Default: answers on a terminal, none in a pipe; without a synthesis the answers are always shown. Ignored with --json",
    },
    { flags: '--json', description: 'Print the whole session as one JSON document' },
  ],
  examples: [
    'council ask "What is the capital of Australia?" --models openai/gpt-4o,anthropic/claude-3.5-sonnet,google/gemini-2.0-flash-001',
    'council ask "Plan a database migration" --strategy risk-averse --order latin-square --seed 7',
    'council ask "Which sorting algorithm?" --models simulated:ada,simulated:basil,simulated:cleo --json',
    'council ask - --models openai/gpt-4o,anthropic/claude-3.5-sonnet,google/gemini-2.0-flash-001 < question.md',
    'council ask --file question.md --strategy risk-averse',
    'council ask "Plan the migration" --models @deep --max-cost 0.50',
    'council ask --continue "And for a Python module?"',
    'council ask "Which index for this query?" --show all',
    'council ask "Is this change safe to merge?" --verdict binary --evidence change.diff',
  ],
  parse: ({ args, options: o }) => ({
    ...parseContinue(argText(args[0]), o['continue']),
    file: parseStringOption('file', o['file']),
    ...parseCouncilRunFlags(o),
    concurrency: parseEndpointConcurrency('concurrency', o['concurrency']),
    org: parseStringOption('org', o['org']),
    maxCostUsd: parseDollarOption('max-cost', o['maxCost']),
    show: parseShowOption(o['show']),
    ...parseVerdictFlags(o),
  }),
  run: async ({ question, file, ...options }, ctx) => {
    if (options.evidence?.includes('-') && file === undefined && (question === undefined || question === '-'))
      throw new CliError({
        code: 'USAGE',
        message:
          '--evidence - reads stdin, so the question cannot come from stdin too: give it as an argument or with --file.',
      });
    const { readQuestion } = await import('../read-question.js');
    const text = await readQuestion({ question, file, io: ctx.io, cwd: ctx.cwd });
    return (await import('./ask-command.js')).runAskCommand({ ...options, question: text }, ctx);
  },
};
