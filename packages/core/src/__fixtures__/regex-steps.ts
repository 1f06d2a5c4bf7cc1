/**
 * Counted regex work for the linear-time guards, instead of a wall-clock bound or V8 internals. Every regex execution
 * a run makes is recorded (each `test`, `exec`, `match`, `matchAll`, `replace`, `search` and `split` goes through
 * `RegExp.prototype.exec` once that is replaced, as the language specifies) and replayed in a small backtracking
 * matcher that counts its steps: one per character tested, assertion checked, quantifier choice tried and start
 * position. It explores the same choices in the same order as any backtracking engine (V8's included, which can
 * only skip some), so a pattern that backtracks quadratically here does so there, and a count is the same on every
 * machine and under any load. Each replay must find what V8 found, so the matcher cannot quietly read a pattern
 * differently.
 *
 * Supported: literals, escapes, classes, `.`, groups (capturing, non-capturing, named), lookaheads, alternation,
 * greedy and lazy quantifiers, `^ $ \b \B`, and the flags `g i m s u y`. Single characters are tested by V8 itself
 * (one compiled pattern per atom), so class and case-folding rules are V8's. Backreferences and lookbehinds throw.
 */

type RegexNode =
  | { kind: 'char'; test: (input: string, at: number) => number }
  | { kind: 'assert'; test: (input: string, at: number) => boolean }
  | { kind: 'seq'; items: RegexNode[] }
  | { kind: 'alt'; options: RegexNode[] }
  | { kind: 'look'; negate: boolean; body: RegexNode }
  | { kind: 'repeat'; min: number; max: number; greedy: boolean; body: RegexNode };

type RepeatNode = Extract<RegexNode, { kind: 'repeat' }>;

class StepBudgetExceeded extends Error {}

/** `\w`: ASCII letters, digits and `_` (V8 adds two letters with the `iu` flags, which no pattern here has). */
function isWordChar(input: string, at: number): boolean {
  if (at < 0 || at >= input.length) return false;
  const code = input.charCodeAt(at);
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95;
}

/** A parser for the pattern syntax listed above; `flags` decide how single characters are tested. */
function parsePattern(source: string, flags: string): RegexNode {
  const unicode = flags.includes('u');
  const atomFlags = ['i', 's', 'u'].filter((flag) => flags.includes(flag)).join('');
  const multiline = flags.includes('m');
  let i = 0;

  /** A node for one character-matching atom, tested by V8 on the single character (or code point) at `at`. */
  const charNode = (atomSource: string): RegexNode => {
    const native = new RegExp(`^(?:${atomSource})$`, atomFlags);
    const seen = new Map<number, boolean>();
    return {
      kind: 'char',
      test: (input, at) => {
        if (at >= input.length) return -1;
        const code = unicode ? input.codePointAt(at)! : input.charCodeAt(at);
        let matches = seen.get(code);
        if (matches === undefined) {
          matches = native.test(unicode ? String.fromCodePoint(code) : input[at]!);
          seen.set(code, matches);
        }
        return matches ? at + (code > 0xffff ? 2 : 1) : -1;
      },
    };
  };

  const parseEscape = (): string => {
    // At a backslash: returns the escape's source, `\p{…}` and `\u{…}` included.
    const start = i;
    i++;
    const c = source[i]!;
    if ((c === 'p' || c === 'P' || c === 'u') && source[i + 1] === '{') {
      i = source.indexOf('}', i) + 1;
    } else if (c === 'u') i += 5;
    else if (c === 'x') i += 3;
    else if (c === 'c') i += 2;
    else i++;
    return source.slice(start, i);
  };

  const parseAlternation = (): RegexNode => {
    const options: RegexNode[] = [parseSequence()];
    while (source[i] === '|') {
      i++;
      options.push(parseSequence());
    }
    return options.length === 1 ? options[0]! : { kind: 'alt', options };
  };

  const parseSequence = (): RegexNode => {
    const items: RegexNode[] = [];
    while (i < source.length && source[i] !== '|' && source[i] !== ')') {
      const atom = parseAtom();
      items.push(parseQuantifier(atom));
    }
    return { kind: 'seq', items };
  };

  const parseAtom = (): RegexNode => {
    const c = source[i]!;
    if (c === '(') {
      i++;
      let look: boolean | undefined;
      if (source.startsWith('?:', i)) i += 2;
      else if (source.startsWith('?=', i) || source.startsWith('?!', i)) {
        look = source[i + 1] === '!';
        i += 2;
      } else if (source.startsWith('?<=', i) || source.startsWith('?<!', i)) {
        throw new Error(`regex-steps: lookbehind is not supported (/${source}/)`);
      } else if (source.startsWith('?<', i)) i = source.indexOf('>', i) + 1;
      const body = parseAlternation();
      if (source[i] !== ')') throw new Error(`regex-steps: unbalanced group in /${source}/`);
      i++;
      return look === undefined ? body : { kind: 'look', negate: look, body };
    }
    if (c === '^') {
      i++;
      return {
        kind: 'assert',
        test: (input, at) => at === 0 || (multiline && /[\n\r\u2028\u2029]/.test(input[at - 1]!)),
      };
    }
    if (c === '$') {
      i++;
      return {
        kind: 'assert',
        test: (input, at) => at === input.length || (multiline && /[\n\r\u2028\u2029]/.test(input[at]!)),
      };
    }
    if (c === '[') {
      const start = i;
      i++;
      if (source[i] === '^') i++;
      if (source[i] === ']') i++;
      while (source[i] !== ']') {
        if (source[i] === '\\') parseEscape();
        else i++;
      }
      i++;
      return charNode(source.slice(start, i));
    }
    if (c === '\\') {
      const next = source[i + 1]!;
      if (next === 'b' || next === 'B') {
        i += 2;
        return {
          kind: 'assert',
          test: (input, at) => (isWordChar(input, at - 1) !== isWordChar(input, at)) === (next === 'b'),
        };
      }
      if (/[1-9k]/.test(next)) throw new Error(`regex-steps: backreferences are not supported (/${source}/)`);
      return charNode(parseEscape());
    }
    i++;
    return charNode(c === '.' ? '.' : c.replace(/[$()*+./?[\\\]^{|}]/g, '\\$&'));
  };

  const parseQuantifier = (atom: RegexNode): RegexNode => {
    let min: number;
    let max: number;
    const c = source[i];
    if (c === '*') [min, max] = [0, Infinity];
    else if (c === '+') [min, max] = [1, Infinity];
    else if (c === '?') [min, max] = [0, 1];
    else if (c === '{' && /^\{\d+(?:,\d*)?\}/.test(source.slice(i))) {
      const [, low, comma, high] = /^\{(\d+)(,?)(\d*)\}/.exec(source.slice(i))!;
      min = Number(low);
      max = comma === '' ? min : high === '' ? Infinity : Number(high);
      i = source.indexOf('}', i);
    } else return atom;
    i++;
    const greedy = source[i] !== '?';
    if (!greedy) i++;
    return { kind: 'repeat', min, max, greedy, body: atom };
  };

  const tree = parseAlternation();
  if (i !== source.length) throw new Error(`regex-steps: could not read /${source}/ at ${i}`);
  return tree;
}

/** Runs `node` at `at` with continuation `next`, counting steps against the budget. */
function matcher(input: string, budget: number) {
  let steps = 0;
  const step = (): void => {
    if (++steps > budget) throw new StepBudgetExceeded();
  };
  const run = (node: RegexNode, at: number, next: (end: number) => boolean): boolean => {
    switch (node.kind) {
      case 'char': {
        step();
        const end = node.test(input, at);
        return end >= 0 && next(end);
      }
      case 'assert':
        step();
        return node.test(input, at) && next(at);
      case 'seq': {
        const from = (k: number, position: number): boolean =>
          k === node.items.length ? next(position) : run(node.items[k]!, position, (end) => from(k + 1, end));
        return from(0, at);
      }
      case 'alt':
        return node.options.some((option) => run(option, at, next));
      case 'look': {
        step();
        const found = run(node.body, at, () => true);
        return found !== node.negate && next(at);
      }
      case 'repeat':
        return node.body.kind === 'char' ? repeatChar(node, at, next) : repeatGroup(node, next)(at, 0);
    }
  };
  /** A quantified single character: a loop, not a recursion, so runs of 100,000 characters fit on the stack. */
  const repeatChar = (node: RepeatNode, at: number, next: (end: number) => boolean): boolean => {
    const char = node.body as Extract<RegexNode, { kind: 'char' }>;
    const ends = [at];
    if (node.greedy) {
      while (ends.length - 1 < node.max) {
        step();
        const end = char.test(input, ends[ends.length - 1]!);
        if (end < 0) break;
        ends.push(end);
      }
      for (let count = ends.length - 1; count >= node.min; count--) {
        step();
        if (next(ends[count]!)) return true;
      }
      return false;
    }
    for (let count = 0; ; count++) {
      if (count >= node.min) {
        step();
        if (next(ends[count]!)) return true;
      }
      if (count >= node.max) return false;
      step();
      const end = char.test(input, ends[count]!);
      if (end < 0) return false;
      ends.push(end);
    }
  };
  /** A quantified group: `from(at, count)` matches the iterations after the first `count`, then `next`. */
  const repeatGroup = (node: RepeatNode, next: (end: number) => boolean) => {
    const from = (at: number, count: number): boolean => {
      // An iteration past the minimum that matches nothing ends the loop, as the language specifies.
      const again = (): boolean =>
        count < node.max &&
        run(node.body, at, (end) => (count >= node.min && end === at ? false : from(end, count + 1)));
      if (count < node.min) return again();
      step();
      return node.greedy ? again() || next(at) : next(at) || again();
    };
    return from;
  };
  return { run, steps: () => steps };
}

export interface RegexExecution {
  readonly source: string;
  readonly flags: string;
  readonly input: string;
  readonly lastIndex: number;
}

/** The regex executions `run` makes, in order. */
export function recordRegexExecutions(run: () => void): RegexExecution[] {
  const executions: RegexExecution[] = [];
  // eslint-disable-next-line @typescript-eslint/unbound-method -- always called with .call(regex, …)
  const originalExec = RegExp.prototype.exec;
  RegExp.prototype.exec = function (this: RegExp, input: string) {
    executions.push({ source: this.source, flags: this.flags, input: String(input), lastIndex: this.lastIndex });
    return originalExec.call(this, input);
  };
  try {
    run();
  } finally {
    RegExp.prototype.exec = originalExec;
  }
  return executions;
}

const compiled = new Map<string, { tree: RegexNode; native: RegExp }>();

/**
 * The steps one execution takes in the backtracking matcher, or `undefined` when it would take more than `budget`
 * (the replay stops there, so a quadratic pattern on 100,000 characters costs `budget` steps, not billions).
 * Throws when the replay does not find what V8 finds.
 */
export function countRegexSteps(execution: RegexExecution, budget: number): number | undefined {
  const { source, flags, input } = execution;
  const key = `/${source}/${flags}`;
  let pattern = compiled.get(key);
  if (pattern === undefined) {
    pattern = { tree: parsePattern(source, flags), native: new RegExp(source, flags) };
    compiled.set(key, pattern);
  }
  const { tree, native } = pattern;
  const fromIndex = flags.includes('g') || flags.includes('y') ? execution.lastIndex : 0;
  const lastStart = flags.includes('y') ? fromIndex : input.length;
  const { run, steps } = matcher(input, budget);
  let found: { index: number; end: number } | undefined;
  try {
    for (let start = fromIndex; start <= lastStart && found === undefined; start++) {
      let end = -1;
      if (
        run(tree, start, (e) => {
          end = e;
          return true;
        })
      )
        found = { index: start, end };
    }
  } catch (error) {
    if (error instanceof StepBudgetExceeded) return undefined;
    throw error;
  }
  native.lastIndex = execution.lastIndex;
  const expected = native.exec(input);
  const got = found === undefined ? 'no match' : `${found.index}+${found.end - found.index}`;
  const want = expected === null ? 'no match' : `${expected.index}+${expected[0].length}`;
  if (got !== want) throw new Error(`regex-steps: ${key} replayed as ${got}, V8 found ${want}`);
  return steps();
}

/**
 * Replays the regex executions of `run` in order while their steps add up to at most `budget`; returns the execution
 * that went past it (its pattern and input length), or `undefined` when all of them fit. A budget linear in the text
 * catches both a pattern that backtracks quadratically within one execution and a linear pattern run once per
 * position (`split`) that backtracks over the rest of the text each time.
 */
export function regexExecutionPastBudget(run: () => void, budget: number): string | undefined {
  let spent = 0;
  for (const execution of recordRegexExecutions(run)) {
    const steps = countRegexSteps(execution, budget - spent);
    if (steps === undefined) return `/${execution.source}/${execution.flags} on ${execution.input.length} characters`;
    spent += steps;
  }
  return undefined;
}
