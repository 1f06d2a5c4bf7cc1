import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { CliError } from './cli-error.js';

export type Env = Readonly<Record<string, string | undefined>>;

/** Everything the commands read from the environment, resolved once, with where each value came from. */
export interface CliSettings {
  home: string;
  homeSource: '--home' | 'LLM_COUNCIL_HOME' | 'default';
  files: {
    config: string;
    personalities: string;
    orgConfig: string | null;
    biasStore: string;
    history: string;
    outbox: string;
    sentCursor: string;
    deadLetter: string;
  };
  models: string[];
  chairman: string | null;
  org: string | null;
  biasPersistence: boolean;
  consentLevel: 0 | 1 | 2 | 3 | 4;
  windowSessions: number;
  windowDays: number;
  minSessions: number;
  hashSecretSet: boolean;
  randomSeed: number | null;
  cloudUrl: string | null;
  cloudTokenSet: boolean;
}

function invalid(variable: string, value: string, accepted: string): CliError {
  return new CliError({ code: 'USAGE', message: `${variable}="${value}" is not valid: ${accepted}. Fix or unset it.` });
}

function readBoolean(env: Env, variable: string, fallback: boolean): boolean {
  const raw = env[variable];
  if (raw === undefined || raw.trim() === '') return fallback;
  const v = raw.trim().toLowerCase();
  if (['true', '1', 'yes', 'on'].includes(v)) return true;
  if (['false', '0', 'no', 'off'].includes(v)) return false;
  throw invalid(variable, raw, 'use true or false');
}

function readInteger(env: Env, variable: string, options: { fallback: number; min: number }): number {
  const raw = env[variable];
  if (raw === undefined || raw.trim() === '') return options.fallback;
  if (!/^\d+$/.test(raw.trim()) || Number(raw) < options.min) throw invalid(variable, raw, `use a whole number ≥ ${options.min}`);
  return Number(raw);
}

function readList(env: Env, variable: string): string[] {
  const raw = env[variable];
  if (raw === undefined) return [];
  return raw.split(',').map((s) => s.trim()).filter((s) => s.length > 0);
}

function nonEmpty(value: string | undefined): string | null {
  return value === undefined || value.trim() === '' ? null : value.trim();
}

/**
 * Reads the `LLM_COUNCIL_*` variables of ADR-018 and the design map. Values that are set but invalid are
 * a usage error naming the variable and the accepted values, never a silent default.
 */
export function readCliSettings(options: { env: Env; cwd: string; home?: string }): CliSettings {
  const { env } = options;
  const envHome = nonEmpty(env['LLM_COUNCIL_HOME']);
  const homeSource = options.home !== undefined ? '--home' : envHome !== null ? 'LLM_COUNCIL_HOME' : 'default';
  const rawHome = options.home ?? envHome ?? join(homedir(), '.llm-council');
  const home = isAbsolute(rawHome) ? rawHome : resolve(options.cwd, rawHome);
  const org = nonEmpty(env['LLM_COUNCIL_ORG']);
  if (org !== null && !/^[A-Za-z0-9._-]+$/.test(org)) {
    throw invalid('LLM_COUNCIL_ORG', org, 'use letters, digits, ".", "_" or "-" only');
  }
  const storeOverride = nonEmpty(env['LLM_COUNCIL_BIAS_STORE']);
  const consentRaw = nonEmpty(env['LLM_COUNCIL_BIAS_CONSENT']);
  let consentLevel: CliSettings['consentLevel'] = 1;
  if (consentRaw !== null) {
    if (!/^[0-4]$/.test(consentRaw)) throw invalid('LLM_COUNCIL_BIAS_CONSENT', consentRaw, 'use 0 (off), 1 (local only), 2 (anonymous), 3 (enhanced) or 4 (research)');
    consentLevel = Number(consentRaw) as CliSettings['consentLevel'];
  }
  const seedRaw = nonEmpty(env['LLM_COUNCIL_RANDOM_SEED']);
  if (seedRaw !== null && !/^\d+$/.test(seedRaw)) throw invalid('LLM_COUNCIL_RANDOM_SEED', seedRaw, 'use a whole number');
  const expandHome = (p: string) => (p.startsWith('~/') ? join(homedir(), p.slice(2)) : isAbsolute(p) ? p : resolve(options.cwd, p));
  return {
    home,
    homeSource,
    files: {
      config: join(home, 'config.yaml'),
      personalities: join(home, 'personalities'),
      orgConfig: org === null ? null : join(home, 'organizations', org, 'config', 'system-prompts.yaml'),
      biasStore: storeOverride === null ? join(home, 'bias_metrics.jsonl') : expandHome(storeOverride),
      history: join(home, 'history.jsonl'),
      outbox: join(home, 'telemetry', 'outbox.jsonl'),
      sentCursor: join(home, 'telemetry', 'sent.cursor'),
      deadLetter: join(home, 'telemetry', 'dead-letter.jsonl'),
    },
    models: readList(env, 'LLM_COUNCIL_MODELS'),
    chairman: nonEmpty(env['LLM_COUNCIL_CHAIRMAN']),
    org,
    biasPersistence: readBoolean(env, 'LLM_COUNCIL_BIAS_PERSISTENCE', false),
    consentLevel,
    windowSessions: readInteger(env, 'LLM_COUNCIL_BIAS_WINDOW_SESSIONS', { fallback: 100, min: 1 }),
    windowDays: readInteger(env, 'LLM_COUNCIL_BIAS_WINDOW_DAYS', { fallback: 30, min: 1 }),
    minSessions: readInteger(env, 'LLM_COUNCIL_MIN_BIAS_SESSIONS', { fallback: 20, min: 1 }),
    hashSecretSet: nonEmpty(env['LLM_COUNCIL_HASH_SECRET']) !== null,
    randomSeed: seedRaw === null ? null : Number(seedRaw),
    cloudUrl: nonEmpty(env['LLM_COUNCIL_CLOUD_URL']),
    cloudTokenSet: nonEmpty(env['LLM_COUNCIL_CLOUD_TOKEN']) !== null,
  };
}
