import { setFlagsFromString } from 'node:v8';

/**
 * Counted regex work for linear-time guards, instead of a wall-clock bound. Every regex a run executes is replayed
 * under V8's backtrack limit (`%NewRegExpWithBacktrackLimit`, the limit V8's own tests use): a replay cut off by the
 * limit finds nothing where the unlimited replay finds a match. A pattern that backtracks quadratically over a run of
 * n spaces needs about n backtracks (100,000 on the hostile inputs); a linear one needs a handful, whatever the load.
 */
setFlagsFromString('--allow-natives-syntax');
// The intrinsic is not JavaScript syntax, so it can only be compiled from a string once the flag is set.
// eslint-disable-next-line @typescript-eslint/no-implied-eval
const withLimit = new Function('source', 'flags', 'limit', 'return %NewRegExpWithBacktrackLimit(source, flags, limit);') as (
  source: string,
  flags: string,
  limit: number,
) => RegExp;

interface Execution {
  readonly regex: RegExp;
  readonly input: string;
  readonly lastIndex: number;
}

/**
 * Replays per regex object: `split` runs its pattern sticky once per position of the text (100,000 executions on
 * a hostile input); the first ones hold the run of spaces that a quadratic separator backtracks over. Replaying tens
 * of thousands of limited patterns in one process also made later limited replays unreliable in Node 20.
 */
const maxReplaysPerRegex = 200;
// eslint-disable-next-line @typescript-eslint/unbound-method -- always called with .call(regex, …)
const originalExec = RegExp.prototype.exec;

/** The executions `run` makes (every `test`, `exec`, `match`, `matchAll`, `replace`, `search` and `split` calls `exec`). */
function recordExecutions(run: () => void): Execution[] {
  const executions: Execution[] = [];
  RegExp.prototype.exec = function (this: RegExp, input: string) {
    executions.push({ regex: this, input: String(input), lastIndex: this.lastIndex });
    return originalExec.call(this, input);
  };
  try {
    run();
  } finally {
    RegExp.prototype.exec = originalExec;
  }
  return executions;
}

/**
 * The pattern with an alternative that always matches, so a replay cut off by the limit (null) is told from one that
 * found nothing: the last character for a searching pattern (every start position is tried first; no pattern here
 * has the `m` flag, so `$` is the end of the input), the empty string for a sticky one.
 */
function alwaysMatching(regex: RegExp, limit: number | undefined): RegExp {
  const source = `(?:${regex.source})|${regex.sticky ? '' : '[\\s\\S]$'}`;
  return limit === undefined ? new RegExp(source, regex.flags) : withLimit(source, regex.flags, limit);
}

function outcome(regex: RegExp, execution: Execution): string {
  regex.lastIndex = execution.lastIndex;
  const match = originalExec.call(regex, execution.input);
  return match === null ? 'cut off' : `${match.index}:${match[0].length}`;
}

/** The regex executions of `run` that need more than `limit` backtracks, each as its pattern and input length. */
export function executionsOverBacktrackLimit(run: () => void, limit: number): string[] {
  const replays = new Map<RegExp, number>();
  const over = new Set<string>();
  for (const execution of recordExecutions(run)) {
    const count = replays.get(execution.regex) ?? 0;
    if (count >= maxReplaysPerRegex) continue;
    replays.set(execution.regex, count + 1);
    if (outcome(alwaysMatching(execution.regex, limit), execution) !== outcome(alwaysMatching(execution.regex, undefined), execution)) {
      over.add(`/${execution.regex.source}/${execution.regex.flags} on ${execution.input.length} characters`);
    }
  }
  return [...over];
}

/** How many regex executions `run` makes: the work of a loop that runs patterns line by line or position by position. */
export function countRegexExecutions(run: () => void): number {
  return recordExecutions(run).length;
}
