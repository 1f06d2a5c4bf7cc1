import { CliError } from './cli-error.js';

/** cac hands over strings, numbers, booleans, or arrays when an option is repeated. */
function asText(value: unknown): string {
  if (Array.isArray(value)) return value.map(asText).join(',');
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
    ? String(value)
    : JSON.stringify(value);
}

/** A positional argument as text (mri turns numeric-looking ones into numbers). */
export function argText(value: unknown): string | undefined {
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : undefined;
}

function usage(message: string): CliError {
  return new CliError({ code: 'USAGE', message });
}

/** An integer option such as `--sessions 50`; rejects fractions, words and values below `min`. */
export function parseIntegerOption(
  name: string,
  value: unknown,
  bounds: { min?: number; max?: number } = {},
): number | undefined {
  if (value === undefined) return undefined;
  const text = asText(value).trim();
  if (value === true || value === '' || !/^-?\d+$/.test(text)) {
    throw usage(
      `--${name} expects a whole number, got "${value === true ? '' : text}". Example: --${name} ${bounds.min ?? 1}.`,
    );
  }
  const n = Number(text);
  if (bounds.min !== undefined && n < bounds.min) {
    // A negative count is a slip of sign, not a number just too small: say so (`--sessions -1`).
    if (n < 0 && bounds.min === 1) throw usage(`--${name} must be positive, got ${n}. Example: --${name} 1.`);
    throw usage(`--${name} must be at least ${bounds.min}, got ${n}.`);
  }
  if (bounds.max !== undefined && n > bounds.max) throw usage(`--${name} must be at most ${bounds.max}, got ${n}.`);
  return n;
}

/** An amount of US dollars such as `--max-cost 0.50` or `--max-cost $2`; must be positive. */
export function parseDollarOption(name: string, value: unknown): number | undefined {
  if (value === undefined) return undefined;
  const text = asText(value).trim();
  const match = /^\$?(-?\d+(?:\.\d+)?|-?\.\d+)$/.exec(text);
  if (value === true || !match)
    throw usage(`--${name} expects an amount of US dollars such as 0.50, got "${value === true ? '' : text}".`);
  const amount = Number(match[1]);
  if (!(amount > 0)) throw usage(`--${name} must be positive, got ${text}. Example: --${name} 0.50.`);
  return amount;
}

const maxDurationMs = 2_147_483_647;

/** A duration such as `--timeout 30` (seconds), `30s`, `1500ms` or `2m`; returns milliseconds. */
export function parseDurationOption(name: string, value: unknown): number | undefined {
  if (value === undefined) return undefined;
  const text = asText(value).trim();
  const match = /^(-?\d+(?:\.\d+)?)(ms|s|m)?$/.exec(text);
  if (value === true || !match) {
    throw usage(`--${name} expects a duration such as 30, 30s, 1500ms or 2m, got "${value === true ? '' : text}".`);
  }
  const amount = Number(match[1]);
  const unit = match[2] ?? 's';
  const ms = unit === 'ms' ? amount : unit === 's' ? amount * 1000 : amount * 60_000;
  if (ms <= 0) throw usage(`--${name} must be positive, got "${text}". Example: --${name} 60s.`);
  if (Math.round(ms) < 1) throw usage(`--${name} must be at least 1ms, got "${text}".`);
  // Node's timers cannot wait longer than 2^31 − 1 ms (about 24.8 days).
  if (ms > maxDurationMs) throw usage(`--${name} must be at most 24 days (2147483647ms), got "${text}".`);
  return Math.round(ms);
}

/** A comma-separated list such as `--models a,b,c`; empty items are dropped, duplicates rejected. */
export function parseListOption(name: string, value: unknown): string[] | undefined {
  if (value === undefined) return undefined;
  if (value === true) throw usage(`--${name} expects a comma-separated list, e.g. --${name} a,b,c.`);
  const raw = asText(value);
  const items = raw
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
  if (items.length === 0) throw usage(`--${name} expects a comma-separated list, e.g. --${name} a,b,c.`);
  const seen = new Set<string>();
  for (const item of items) {
    if (seen.has(item)) throw usage(`--${name} lists "${item}" twice; give each only once.`);
    seen.add(item);
  }
  return items;
}

/** One of a fixed set of words, e.g. `--format text|json|csv|html`. */
export function parseChoiceOption<T extends string>(
  name: string,
  value: unknown,
  choices: readonly T[],
): T | undefined {
  if (value === undefined) return undefined;
  const text = value === true ? '' : asText(value);
  if (!(choices as readonly string[]).includes(text)) {
    throw usage(`--${name} must be one of ${choices.join(', ')}, got "${text}".`);
  }
  return text as T;
}

/** A string option that may be given several times (`--input a --input b`): every value, in order. */
export function parseRepeatedStringOption(name: string, value: unknown): string[] | undefined {
  if (value === undefined) return undefined;
  return (Array.isArray(value) ? (value as unknown[]) : [value]).map((one) => parseStringOption(name, one)!);
}

/** A string option that needs a value (`--output file`). */
export function parseStringOption(name: string, value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (value === true || asText(value).trim() === '') throw usage(`--${name} needs a value.`);
  if (Array.isArray(value)) throw usage(`--${name} was given more than once; give it once.`);
  return asText(value);
}
