import { BiasStoreError } from './bias-store-error.js';
import type { ConsentLevel } from './consent-level.js';
import { consentAcceptedValues, safeParseConsentLevel } from './consent-level.js';
import { resolveCouncilPaths } from './council-paths.js';

/** The bias store's configuration, from ADR-018's environment variables. */
export interface BiasStoreConfig {
  /** `LLM_COUNCIL_BIAS_PERSISTENCE` (default false, as in ADR-018). */
  persistence: boolean;
  /** `LLM_COUNCIL_BIAS_CONSENT` (default 1, LOCAL_ONLY). */
  consent: ConsentLevel;
  /** True when bias records are to be written: persistence on and consent ≥ 1. */
  writesBiasRecords: boolean;
  /** `$LLM_COUNCIL_HOME` (default `~/.llm-council`). */
  home: string;
  /** `LLM_COUNCIL_BIAS_STORE` (default `$LLM_COUNCIL_HOME/bias_metrics.jsonl`), absolute. */
  storePath: string;
  /** `LLM_COUNCIL_BIAS_WINDOW_SESSIONS` (default 100). */
  windowSessions: number;
  /** `LLM_COUNCIL_BIAS_WINDOW_DAYS` (default 30). */
  windowDays: number;
  /** `LLM_COUNCIL_MIN_BIAS_SESSIONS` (default 20). */
  minSessions: number;
  /** `LLM_COUNCIL_HASH_SECRET`, or null. Required at consent 4; never printed. */
  hashSecret: string | null;
}

type Env = Readonly<Record<string, string | undefined>>;

function value(env: Env, name: string): string | undefined {
  const raw = env[name];
  return raw === undefined || raw.trim() === '' ? undefined : raw.trim();
}

function shown(text: string): string {
  return JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text);
}

/**
 * Reads ADR-018's variables from `env` (default `process.env`); an empty value counts as unset.
 * Every invalid variable is reported at once, naming it and its accepted values.
 */
export function safeParseBiasStoreConfig(env: Env = process.env): { success: true; value: BiasStoreConfig } | { success: false; error: BiasStoreError } {
  const problems: string[] = [];

  let persistence = false;
  const persistenceText = value(env, 'LLM_COUNCIL_BIAS_PERSISTENCE');
  if (persistenceText !== undefined) {
    const lower = persistenceText.toLowerCase();
    if (lower === 'true') persistence = true;
    else if (lower !== 'false') problems.push(`LLM_COUNCIL_BIAS_PERSISTENCE is ${shown(persistenceText)}; use true or false.`);
  }

  let consent: ConsentLevel = 1;
  const consentText = value(env, 'LLM_COUNCIL_BIAS_CONSENT');
  if (consentText !== undefined) {
    const parsed = safeParseConsentLevel(consentText);
    if (parsed.success) consent = parsed.value;
    else problems.push(`LLM_COUNCIL_BIAS_CONSENT is ${shown(consentText)}; use ${consentAcceptedValues}.`);
  }

  const integer = (name: string, fallback: number): number => {
    const text = value(env, name);
    if (text === undefined) return fallback;
    if (!/^\d+$/.test(text) || Number(text) < 1 || !Number.isSafeInteger(Number(text))) {
      problems.push(`${name} is ${shown(text)}; use a whole number of 1 or more (default ${fallback}).`);
      return fallback;
    }
    return Number(text);
  };
  const windowSessions = integer('LLM_COUNCIL_BIAS_WINDOW_SESSIONS', 100);
  const windowDays = integer('LLM_COUNCIL_BIAS_WINDOW_DAYS', 30);
  const minSessions = integer('LLM_COUNCIL_MIN_BIAS_SESSIONS', 20);

  // The secret is never trimmed into something else nor echoed.
  const secretRaw = env.LLM_COUNCIL_HASH_SECRET;
  const hashSecret = secretRaw === undefined || secretRaw.trim() === '' ? null : secretRaw; // only white space counts as unset
  if (consent === 4 && hashSecret === null) {
    problems.push(
      'LLM_COUNCIL_BIAS_CONSENT is 4 (RESEARCH), which stores query hashes, but LLM_COUNCIL_HASH_SECRET is not set; there is no default secret. Set LLM_COUNCIL_HASH_SECRET to a long random secret of your own (e.g. `openssl rand -hex 32`), or choose consent 3 or lower.',
    );
  }

  if (problems.length > 0) {
    return { success: false, error: new BiasStoreError({ code: 'INVALID_CONFIG', message: `Invalid bias store configuration:\n- ${problems.join('\n- ')}` }) };
  }
  const paths = resolveCouncilPaths(env);
  return {
    success: true,
    value: { persistence, consent, writesBiasRecords: persistence && consent >= 1, home: paths.home, storePath: paths.biasMetrics, windowSessions, windowDays, minSessions, hashSecret },
  };
}

/** Reads ADR-018's variables (see `safeParseBiasStoreConfig`); throws a `BiasStoreError` (`INVALID_CONFIG`). */
export function parseBiasStoreConfig(env: Env = process.env): BiasStoreConfig {
  const result = safeParseBiasStoreConfig(env);
  if (!result.success) throw result.error;
  return result.value;
}
