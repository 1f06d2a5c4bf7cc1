import { valueFlagNames } from './cli-argv.js';

/**
 * The texts given to `--name` in argv, in order, as mri reads them: `--name=value`, or `--name value` where the next
 * token does not start with `-` (pass argv after `joinNegativeValues`, which has joined `--name -5` as `--name=-5`).
 * An occurrence with no value gives null, so the list stays aligned with the parser's.
 */
function typedValues(argv: readonly string[], name: string): (string | null)[] {
  const values: (string | null)[] = [];
  argv.forEach((arg, i) => {
    const next = argv[i + 1];
    if (arg === `--${name}`) values.push(next !== undefined && !next.startsWith('-') ? next : null);
    else if (arg.startsWith(`--${name}=`)) values.push(arg.slice(name.length + 3));
  });
  return values;
}

const camelCase = (name: string): string => name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

/** `typed` if it is the text the parser read as the number `parsed`, else `parsed` as it came. */
const asTyped = (parsed: unknown, typed: string | null | undefined): unknown =>
  typeof parsed === 'number' && typed !== null && typed !== undefined && typed.trim() !== '' && Number(typed) === parsed
    ? typed
    : parsed;

/**
 * The parsed options with every value-taking option's number-like value as typed. The parser (mri) turns number-like
 * values into numbers, so a session prefix `--continue 6038e167` arrived as 6.038e170, `--config-version 1.10` as 1.1
 * and `--token 0123456789` without its leading zero. Each command's own parser reads numbers from the text as it
 * needs. A value is replaced only by the text the parser read as that very number, so an occurrence the two read
 * differently keeps the parser's value. Long names only (`--name`): the one short alias, `-o` of `--option
 * <key=value>`, never takes a number-like value.
 */
export function typedOptionValues(
  parsed: Record<string, unknown>,
  argv: readonly string[],
  flags: readonly string[],
): Record<string, unknown> {
  const typed = { ...parsed };
  for (const name of valueFlagNames(flags)) {
    const key = camelCase(name);
    const value = parsed[key];
    const numeric = Array.isArray(value) ? value.some((v) => typeof v === 'number') : typeof value === 'number';
    if (!numeric) continue;
    const values = typedValues(argv, name);
    if (Array.isArray(value)) {
      if (values.length === value.length) typed[key] = value.map((v, i) => asTyped(v, values[i]));
    } else {
      typed[key] = asTyped(value, values[values.length - 1]);
    }
  }
  return typed;
}
