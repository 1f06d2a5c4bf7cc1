import { valueFlagNames } from './cli-argv.js';

/** The occurrences of `--name value` and `--name=value` in argv, in order, as typed. */
function typedValues(argv: readonly string[], name: string): string[] {
  const values: string[] = [];
  argv.forEach((arg, i) => {
    if (arg === `--${name}` && argv[i + 1] !== undefined) values.push(argv[i + 1]!);
    else if (arg.startsWith(`--${name}=`)) values.push(arg.slice(name.length + 3));
  });
  return values;
}

const camelCase = (name: string): string => name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

/**
 * The parsed options with every value-taking option's value as typed. The parser (mri) turns number-like values into
 * numbers, so a session prefix `--continue 6038e167` arrived as 6.038e170, `--config-version 1.10` as 1.1 and
 * `--token 0123456789` without its leading zero. Each command's own parser reads numbers from the text as it needs.
 * A value the parser kept as text, or one whose occurrences cannot be matched to argv, is left as parsed.
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
      if (values.length === value.length) typed[key] = values;
    } else if (values.length > 0) {
      typed[key] = values[values.length - 1];
    }
  }
  return typed;
}
