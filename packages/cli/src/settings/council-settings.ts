import type { ConsentLevel } from '@council/bias-store';
import type { ProviderVariables } from './provider-variables.js';
import { PROVIDER_VARIABLES } from './provider-variables.js';

/** An environment: variable names to values (`process.env`, or a plain object in tests). */
export type Env = Readonly<Record<string, string | undefined>>;

/** The provider key variables whose presence the settings report (DESIGN.md, plus the local servers'). Their values are never printed. */
export const PROVIDER_KEY_VARIABLES: readonly ProviderKeyVariable[] = PROVIDER_VARIABLES.flatMap((p) => p.keyVariables);
export type ProviderKeyVariable = ProviderVariables['keyVariables'][number];

/** The provider base-URL variables (DESIGN.md, plus the local servers'). */
export const PROVIDER_BASE_URL_VARIABLES: readonly ProviderBaseUrlVariable[] = PROVIDER_VARIABLES.map(
  (p) => p.baseUrlVariable,
);
export type ProviderBaseUrlVariable = ProviderVariables['baseUrlVariable'];

/** What the command line (or a command, such as `demo`) sets over the environment: flags > environment > defaults. */
export interface CouncilSettingsFlags {
  /** Base of relative paths. Default `process.cwd()`. */
  cwd?: string;
  /** `--home <dir>`: over `LLM_COUNCIL_HOME`. */
  home?: string;
  /** `--org <id>` over `LLM_COUNCIL_ORG`; `null` ignores the variable. */
  org?: string | null;
  /** A bias store path over `LLM_COUNCIL_BIAS_STORE`; `null` ignores the variable (the store under the home). */
  biasStore?: string | null;
  /** Over `LLM_COUNCIL_BIAS_PERSISTENCE`. */
  biasPersistence?: boolean;
  /** Over `LLM_COUNCIL_BIAS_CONSENT`. */
  consentLevel?: ConsentLevel;
}

/** The files under the home directory (DESIGN.md), absolute. */
// A type alias rather than an interface, so that `Object.entries(files)` keeps the value type.
export type CouncilFiles = {
  config: string;
  personalities: string;
  /** `organizations/<org>/config/system-prompts.yaml`, or null without an organization. */
  orgConfig: string | null;
  /** `LLM_COUNCIL_BIAS_STORE`, or `<home>/bias_metrics.jsonl`. */
  biasStore: string;
  /** `<home>/contributions.jsonl`: the members each synthesis credited, written under the bias records' consent rule. */
  contributions: string;
  history: string;
  outbox: string;
  sentCursor: string;
  deadLetter: string;
};

/** ADR-015's per-session detection thresholds. */
export interface BiasThresholds {
  /** `LLM_COUNCIL_LENGTH_CORRELATION_THRESHOLD`: |r| above this (with p < 0.05) flags length bias. Default 0.3. */
  lengthCorrelation: number;
  /** `LLM_COUNCIL_POSITION_VARIANCE_THRESHOLD`: variance of per-position mean scores above this flags position bias. Default 0.5. */
  positionVariance: number;
}

/**
 * The values that must never be printed, kept off the enumerable properties of `CouncilSettings` so that
 * `JSON.stringify` and `console.log` of the settings cannot show them.
 */
export interface CouncilSecrets {
  /** `LLM_COUNCIL_HASH_SECRET` as set (not trimmed), or null. */
  hashSecret: string | null;
  /** `LLM_COUNCIL_CLOUD_TOKEN`, trimmed, or null. */
  cloudToken: string | null;
  /** `LLM_COUNCIL_MCP_TOKEN` (the bearer token of `council mcp --http`), trimmed, or null. */
  mcpToken: string | null;
  /** The provider key and base-URL variables that are set, trimmed; what the providers are configured from. */
  providerEnv: Env;
}

/** Everything Council reads from the environment and the global flags, resolved and validated once. */
export interface CouncilSettings {
  /** The home directory, absolute. */
  home: string;
  homeSource: '--home' | 'LLM_COUNCIL_HOME' | 'default';
  files: CouncilFiles;
  /** `LLM_COUNCIL_MODELS`, split on commas. */
  models: string[];
  /** `LLM_COUNCIL_CHAIRMAN`, or null. */
  chairman: string | null;
  /** `--org` or `LLM_COUNCIL_ORG`, or null. */
  org: string | null;
  orgSource: '--org' | 'LLM_COUNCIL_ORG' | null;
  /** `LLM_COUNCIL_BIAS_AUDIT`, or null when unset (the configuration cascade decides). */
  biasAudit: boolean | null;
  /** `LLM_COUNCIL_BIAS_PERSISTENCE` (default false). */
  biasPersistence: boolean;
  /** `LLM_COUNCIL_BIAS_CONSENT` (default 1, LOCAL_ONLY). */
  consentLevel: ConsentLevel;
  /** True when bias records are written: persistence on and consent ≥ 1. */
  writesBiasRecords: boolean;
  /**
   * The bias report's window when its flags leave it out: `sessions` from `LLM_COUNCIL_BIAS_WINDOW_SESSIONS`, `days`
   * from `LLM_COUNCIL_BIAS_WINDOW_DAYS`, each by default bias-audit's `DEFAULT_BIAS_WINDOW` (100 sessions, 30 days).
   */
  biasWindow: { sessions: number; days: number };
  /** `LLM_COUNCIL_MIN_BIAS_SESSIONS` (default 20). */
  minSessions: number;
  biasThresholds: BiasThresholds;
  /** `LLM_COUNCIL_RANDOM_SEED`, or null. */
  randomSeed: number | null;
  hashSecretSet: boolean;
  /** `LLM_COUNCIL_CLOUD_URL` as set (checked by the uploader when it sends), or null. */
  cloudUrl: string | null;
  cloudTokenSet: boolean;
  /** Which provider keys are set; never their values. */
  apiKeys: Record<ProviderKeyVariable, boolean>;
  /** The provider base URLs that are set, as shown: scrubbed of credentials and query keys (as set: `secrets.providerEnv`). */
  baseUrls: Partial<Record<ProviderBaseUrlVariable, string>>;
  /** The `LLM_COUNCIL_*` variables that were set (non-blank) and used, sorted: where each value came from. */
  variablesSet: readonly string[];
  /** Not enumerable: never printed with the settings. */
  readonly secrets: CouncilSecrets;
}
