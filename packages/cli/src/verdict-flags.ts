import type { VerdictMode } from '@council/core';
import type { CliOption } from './cli-command.js';
import { CliError } from './cli-error.js';
import { parseChoiceOption, parseIntegerOption, parseRepeatedStringOption } from './parse-option.js';

// core's `verdictModes`, written out: this file loads at every start (ask's flags), and importing core's index
// would load all of core, ky and Node's fetch with it. `verdict-flags.test.ts` keeps the two lists equal.
export const VERDICT_MODES: readonly VerdictMode[] = ['binary', 'tie-breaker'];

/** The jury and evidence flags `ask` and `gate` share. */
export interface VerdictFlags {
  /** `--verdict binary|tie-breaker`: jury mode. */
  verdict?: VerdictMode;
  /** `--min-margin <0..1>`: the smallest weighted margin that decides. */
  minMargin?: number;
  /** `--evidence FILE|DIR|-`, in order. */
  evidence?: string[];
  /** `--redact-secrets`: replace secrets in the evidence instead of refusing it. */
  redactSecrets?: boolean;
  /** `--evidence-max-chars <n>`: the most evidence characters one prompt carries. */
  evidenceMaxChars?: number;
}

export const evidenceOptions: readonly CliOption[] = [
  {
    flags: '--evidence <path>',
    description:
      'Material every member reads (a diff, logs, a document): a file, a directory (walked; .councilignore applies) or - for stdin; repeatable. Secrets refuse the run unless --redact-secrets',
  },
  {
    flags: '--redact-secrets',
    description:
      'Replace secrets found in the evidence with [REDACTED <kind>] (and leave .env files out) instead of refusing',
  },
  {
    flags: '--evidence-max-chars <n>',
    description:
      'The most evidence characters each prompt carries; the rest is cut at a line end and reported (default 64000)',
  },
];

export const verdictOptions: readonly CliOption[] = [
  {
    flags: '--verdict <mode>',
    description:
      'Jury mode: each member decides approve, reject or unclear; the verdict is their Borda-weighted majority. binary, or tie-breaker (the chairman breaks an exact tie)',
  },
  {
    flags: '--min-margin <m>',
    description:
      'Jury mode: the smallest weighted margin (0 to 1) that decides; below it the verdict is unclear (default 0.1)',
  },
];

/** `--min-margin 0.25`: a number from 0 to 1. */
export function parseMargin(name: string, value: unknown): number | undefined {
  if (value === undefined) return undefined;
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
  const n = Number(text);
  if (text === '' || !Number.isFinite(n) || n < 0 || n > 1)
    throw new CliError({
      code: 'USAGE',
      message: `--${name} expects a number from 0 to 1 such as 0.2, got "${text}".`,
    });
  return n;
}

export function parseVerdictFlags(o: Record<string, unknown>): VerdictFlags {
  const flags: VerdictFlags = {};
  const verdict = parseChoiceOption('verdict', o['verdict'], VERDICT_MODES);
  if (verdict !== undefined) flags.verdict = verdict;
  const minMargin = parseMargin('min-margin', o['minMargin']);
  if (minMargin !== undefined) flags.minMargin = minMargin;
  const evidence = parseRepeatedStringOption('evidence', o['evidence']);
  if (evidence !== undefined) flags.evidence = evidence;
  if (o['redactSecrets'] === true) flags.redactSecrets = true;
  const max = parseIntegerOption('evidence-max-chars', o['evidenceMaxChars'], { min: 1 });
  if (max !== undefined) flags.evidenceMaxChars = max;
  return flags;
}
