import { CliError } from './cli-error.js';
import { parseListOption } from './parse-option.js';

/** What the text output shows of a session beyond the synthesis (`--show`): the members' answers, the reviews. */
export interface SessionShow {
  answers: boolean;
  reviews: boolean;
}

const WORDS = ['answers', 'reviews', 'all', 'none'] as const;

/**
 * `--show answers|reviews|all|none`, or a comma list of them (`answers,reviews` is `all`). `none` cannot be
 * combined with anything else. Undefined when the flag was not given (the command picks its default).
 */
export function parseShowOption(value: unknown): SessionShow | undefined {
  const items = parseListOption('show', value);
  if (items === undefined) return undefined;
  const unknown = items.filter((item) => !(WORDS as readonly string[]).includes(item.toLowerCase()));
  if (unknown.length > 0)
    throw new CliError({
      code: 'USAGE',
      message: `--show takes answers, reviews, all or none (or a comma list such as answers,reviews), got "${unknown.join(',')}".`,
    });
  const words = new Set(items.map((item) => item.toLowerCase()));
  if (words.has('none') && words.size > 1)
    throw new CliError({
      code: 'USAGE',
      message: `--show none cannot be combined with ${[...words].filter((w) => w !== 'none').join(',')}: give one or the other.`,
    });
  const all = words.has('all');
  return { answers: all || words.has('answers'), reviews: all || words.has('reviews') };
}

/** Shows nothing beyond the synthesis (the default in a pipe, and for callers that do not ask). */
export const SHOW_NONE: SessionShow = { answers: false, reviews: false };
