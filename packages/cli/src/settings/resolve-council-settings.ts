import { lstatSync, readlinkSync, realpathSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { DEFAULT_BIAS_WINDOW } from '@council/bias-audit';
import { consentAcceptedValues, councilPaths, safeParseConsentLevel } from '@council/bias-store';
import type { ConsentLevel } from '@council/bias-store';
import { configFilesInHome } from '@council/core/config-files';
import { orgIdProblem } from '@council/core/org-id';
import { scrubSecrets } from '@council/providers/scrub-secrets';
import * as z from 'zod';
import { CliError } from '../cli-error.js';
import type { CouncilSecrets, CouncilSettings, CouncilSettingsFlags, Env } from './council-settings.js';
import { PROVIDER_BASE_URL_VARIABLES, PROVIDER_KEY_VARIABLES } from './council-settings.js';
import { readKeysFile } from './keys-file.js';

/*
 * The one module that reads the environment. Everything else in Council takes the values resolved here as
 * parameters; only the executables (and `runCli` / `runTelemetryCli`, the CLI's top level) hand an
 * environment in. `~` is expanded here and nowhere else.
 */

type AddIssue = (message: string) => void;

/** The one place `~` is expanded. `~` and `~/x` are the user's home; absolute paths stay; relative ones are taken from `cwd`. */
function expandHomePath(path: string, context: { userHome: string; cwd: string; addIssue: AddIssue }): string {
  if (path === '~') return context.userHome;
  if (path.startsWith('~/') || path.startsWith('~\\')) return join(context.userHome, path.slice(2));
  if (path.startsWith('~')) {
    context.addIssue("use an absolute path, ~ or ~/… (another user's ~name is not expanded)");
    return path;
  }
  return isAbsolute(path) ? path : resolve(context.cwd, path);
}

function userHomeOf(env: Env): string {
  const fromEnv = env['HOME'] ?? env['USERPROFILE'];
  return fromEnv !== undefined && fromEnv.trim() !== '' ? fromEnv : homedir();
}

const TRUE_WORDS = ['true', '1', 'yes', 'on'];
const FALSE_WORDS = ['false', '0', 'no', 'off'];

const booleanText = z.string().transform((text, ctx) => {
  const word = text.toLowerCase();
  if (TRUE_WORDS.includes(word)) return true;
  if (FALSE_WORDS.includes(word)) return false;
  ctx.addIssue({ code: 'custom', message: 'use true or false (1/0, yes/no and on/off are accepted too)' });
  return z.NEVER;
});

function wholeNumber(min: number, accepted: string) {
  return z.string().transform((text, ctx) => {
    const n = Number(text);
    if (!/^\d+$/.test(text) || !Number.isSafeInteger(n) || n < min) {
      ctx.addIssue({ code: 'custom', message: accepted });
      return z.NEVER;
    }
    return n;
  });
}

function decimal(range: { min: number; max: number }, accepted: string) {
  return z.string().transform((text, ctx) => {
    const n = Number(text);
    if (!/^(\d+(\.\d*)?|\.\d+)$/.test(text) || n < range.min || n > range.max) {
      ctx.addIssue({ code: 'custom', message: accepted });
      return z.NEVER;
    }
    return n;
  });
}

const consentText = z.string().transform((text, ctx): ConsentLevel => {
  const parsed = safeParseConsentLevel(text);
  if (parsed.success) return parsed.value;
  ctx.addIssue({ code: 'custom', message: `use ${consentAcceptedValues}` });
  return z.NEVER;
});

// An organization id names a directory under the home: nothing that could leave it.
// Core's rule (orgIdProblem), the one its configuration cascade applies: for LLM_COUNCIL_ORG and --org alike.
const orgText = z.string().transform((org, ctx) => {
  const problem = orgIdProblem(org);
  if (problem === null) return org;
  ctx.addIssue({ code: 'custom', message: problem });
  return z.NEVER;
});

function pathText(context: { userHome: string; cwd: string }) {
  return z
    .string()
    .transform((text, ctx) =>
      expandHomePath(text, { ...context, addIssue: (message) => ctx.addIssue({ code: 'custom', message }) }),
    );
}

/** The `LLM_COUNCIL_*` variables this module reads, each with its schema (blank values are removed before parsing). */
function environmentSchema(context: { userHome: string; cwd: string }) {
  return z.object({
    LLM_COUNCIL_HOME: pathText(context).optional(),
    LLM_COUNCIL_BIAS_STORE: pathText(context).optional(),
    LLM_COUNCIL_MODELS: z.string().optional(),
    LLM_COUNCIL_CHAIRMAN: z.string().optional(),
    LLM_COUNCIL_ORG: orgText.optional(),
    LLM_COUNCIL_BIAS_AUDIT: booleanText.optional(),
    LLM_COUNCIL_BIAS_PERSISTENCE: booleanText.optional(),
    LLM_COUNCIL_BIAS_CONSENT: consentText.optional(),
    LLM_COUNCIL_BIAS_WINDOW_SESSIONS: wholeNumber(1, 'use a whole number ≥ 1').optional(),
    LLM_COUNCIL_BIAS_WINDOW_DAYS: wholeNumber(1, 'use a whole number ≥ 1').optional(),
    LLM_COUNCIL_MIN_BIAS_SESSIONS: wholeNumber(1, 'use a whole number ≥ 1').optional(),
    LLM_COUNCIL_RANDOM_SEED: wholeNumber(0, 'use a whole number').optional(),
    LLM_COUNCIL_LENGTH_CORRELATION_THRESHOLD: decimal(
      { min: 0, max: 1 },
      'use a number from 0 to 1, the |r| above which length bias is flagged (default 0.3)',
    ).optional(),
    LLM_COUNCIL_POSITION_VARIANCE_THRESHOLD: decimal(
      { min: 0, max: Number.MAX_VALUE },
      'use a number of 0 or more, the variance of per-position mean scores above which position bias is flagged (default 0.5)',
    ).optional(),
    LLM_COUNCIL_CLOUD_URL: z.string().optional(),
  });
}

type Parsed = z.output<ReturnType<typeof environmentSchema>>;

/**
 * Shown in messages: scrubbed of URL credentials and query keys (before the cut, which could leave half a user-info
 * no longer recognisable as one), quoted, and cut at 40 characters. Secrets are never parsed here, so never shown.
 */
function shown(text: string): string {
  const clean = scrubSecrets(text);
  return JSON.stringify(clean.length > 40 ? `${clean.slice(0, 40)}…` : clean);
}

/**
 * A provider's base URL variable that is set but not an absolute http(s) URL: one sentence, without the value (which
 * may hold a credential where no URL parser can find it, such as `user:password@host/v1` with no scheme). Fetch would
 * otherwise fail on every call with an error quoting it.
 */
function baseUrlProblem(name: string, value: string): string | null {
  let protocol: string | undefined;
  try {
    protocol = new URL(value).protocol;
  } catch {
    protocol = undefined;
  }
  if (protocol === 'http:' || protocol === 'https:') return null;
  // Not even the scheme is shown: `user:password@host/v1` parses as a URL whose "scheme" is the user name.
  return `${name} is not an http:// or https:// URL (its value is not shown: it may hold a credential). Give the server's address with its scheme, e.g. http://127.0.0.1:8080/v1, or unset it.`;
}

function nonBlank(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

/** The variables a flag overrides: their environment values are neither read nor checked. */
function overridden(flags: CouncilSettingsFlags): Set<string> {
  const names = new Set<string>();
  if (flags.home !== undefined) names.add('LLM_COUNCIL_HOME');
  if (flags.org !== undefined) names.add('LLM_COUNCIL_ORG');
  if (flags.biasStore !== undefined) names.add('LLM_COUNCIL_BIAS_STORE');
  if (flags.biasPersistence !== undefined) names.add('LLM_COUNCIL_BIAS_PERSISTENCE');
  if (flags.consentLevel !== undefined) names.add('LLM_COUNCIL_BIAS_CONSENT');
  return names;
}

interface Resolution {
  settings: CouncilSettings;
  /** One sentence per invalid variable or flag, naming it and what to do. */
  problems: string[];
  /** The variables whose values were invalid (the fallback resolution leaves them out). */
  invalid: string[];
}

interface PathContext {
  userHome: string;
  cwd: string;
}

/** The `LLM_COUNCIL_*` variables, validated: what was set (blank counts as unset), what it parsed to, and each problem. */
function parseVariables(
  env: Env,
  options: PathContext & { skip: Set<string> },
): { raw: Record<string, string>; parsed: Parsed; problems: string[]; invalid: string[] } {
  const schema = environmentSchema(options);
  const raw: Record<string, string> = {};
  for (const name of Object.keys(schema.shape)) {
    const value = nonBlank(env[name]);
    if (value !== undefined && !options.skip.has(name)) raw[name] = value;
  }
  const result = schema.safeParse(raw);
  if (result.success) return { raw, parsed: result.data, problems: [], invalid: [] };
  const invalid = result.error.issues.map((issue) => String(issue.path[0]));
  const problems = result.error.issues.map(
    (issue, i) => `${invalid[i]}=${shown(raw[invalid[i]!] ?? '')} is not valid: ${issue.message}. Fix or unset it.`,
  );
  return { raw, parsed: {}, problems, invalid };
}

/** The home (flag, variable, default) and a bias store given by flag, `~` expanded; a bad flag adds a problem. */
/**
 * The home itself, or the nearest of its parents that exists, when that is a file: the home cannot be created or
 * used there, and every command would otherwise fail later with a file's ENOTDIR. Other file-system trouble
 * (permissions, a missing mount) is left to the command that writes, which names the file.
 */
function fileInHomePath(home: string): string | undefined {
  for (let path = home; ; path = dirname(path)) {
    let stats;
    try {
      stats = statSync(path, { throwIfNoEntry: false });
    } catch (error) {
      // ENOTDIR: a parent is a file, found further up; anything else (EACCES…) is for the command to report.
      if ((error as NodeJS.ErrnoException).code !== 'ENOTDIR') return undefined;
    }
    if (stats !== undefined) return stats.isDirectory() ? undefined : path;
    if (dirname(path) === path) return undefined;
  }
}

function resolveLocations(parsed: Parsed, options: PathContext & { flags: CouncilSettingsFlags; problems: string[] }) {
  const { flags, problems } = options;
  const flagProblem = (what: string, value: string) => (message: string) =>
    problems.push(`${what} ${shown(value)} is not valid: ${message}.`);
  let home = join(options.userHome, '.llm-council');
  let homeSource: CouncilSettings['homeSource'] = 'default';
  if (flags.home !== undefined) {
    home = expandHomePath(flags.home, { ...options, addIssue: flagProblem('--home', flags.home) });
    homeSource = '--home';
  } else if (parsed.LLM_COUNCIL_HOME !== undefined) {
    home = parsed.LLM_COUNCIL_HOME;
    homeSource = 'LLM_COUNCIL_HOME';
  }
  const file = fileInHomePath(home);
  if (file !== undefined) {
    const named = homeSource === 'default' ? 'The home directory' : homeSource;
    // Paths in full: a home cut short would not say which file is in the way.
    problems.push(
      `${named} ${home} is not valid: ${file === home ? 'it is' : `${file} is`} a file, not a directory. Point it at a directory (Council creates one that is missing).`,
    );
  }
  const named =
    typeof flags.biasStore === 'string'
      ? expandHomePath(flags.biasStore, { ...options, addIssue: flagProblem('The bias store path', flags.biasStore) })
      : flags.biasStore === null
        ? undefined
        : parsed.LLM_COUNCIL_BIAS_STORE;
  // A store the user named explicitly may be a symbolic link: it is followed, once, here, so the store's segments and
  // its writers' pins live beside the file it points to. The default `<home>/bias_metrics.jsonl` is never followed:
  // an append refuses a link there (a link the user did not name could lead anywhere).
  const biasStore = named === undefined ? undefined : followLink(named);
  return { home, homeSource, paths: councilPaths(home, biasStore === undefined ? {} : { biasMetrics: biasStore }) };
}

/** The file a symbolic link points to (a link to a link, to the end; one to nothing, the path it names), else the path. */
function followLink(path: string): string {
  try {
    if (!lstatSync(path).isSymbolicLink()) return path;
  } catch {
    return path; // not there yet: created on the first append
  }
  try {
    return realpathSync(path);
  } catch {
    return resolve(dirname(path), readlinkSync(path)); // a link to a file not created yet: the first append creates it
  }
}

/**
 * The values never printed: the hash secret exactly as set, the cloud token, and the provider variables that are set —
 * a key from the environment, else from the keys file (`fileKeys`: the environment wins).
 */
function readSecrets(
  env: Env,
  invalid: ReadonlySet<string>,
  fileKeys: Readonly<Record<string, string>>,
): CouncilSecrets {
  const hashSecretRaw = env['LLM_COUNCIL_HASH_SECRET'];
  const providerEnv: Record<string, string> = {};
  for (const name of [...PROVIDER_KEY_VARIABLES, ...PROVIDER_BASE_URL_VARIABLES]) {
    if (invalid.has(name)) continue;
    const value = nonBlank(env[name]) ?? nonBlank(fileKeys[name]);
    if (value !== undefined) providerEnv[name] = value;
  }
  return {
    // Only white space counts as unset; the secret itself is never trimmed into something else.
    hashSecret: hashSecretRaw === undefined || hashSecretRaw.trim() === '' ? null : hashSecretRaw,
    cloudToken: nonBlank(env['LLM_COUNCIL_CLOUD_TOKEN']) ?? null,
    mcpToken: nonBlank(env['LLM_COUNCIL_MCP_TOKEN']) ?? null,
    providerEnv,
  };
}

function resolveOnce(env: Env, flags: CouncilSettingsFlags): Resolution {
  const context: PathContext = { cwd: flags.cwd ?? process.cwd(), userHome: userHomeOf(env) };
  const { raw, parsed, problems, invalid } = parseVariables(env, { ...context, skip: overridden(flags) });
  const { home, homeSource, paths } = resolveLocations(parsed, { ...context, flags, problems });
  // --org is checked as LLM_COUNCIL_ORG is, so that a valid flag overrides an invalid variable and an invalid flag is named.
  if (typeof flags.org === 'string') {
    const checked = orgText.safeParse(flags.org);
    if (!checked.success)
      problems.push(
        `--org ${shown(flags.org)} is not valid: ${checked.error.issues[0]?.message ?? 'not an organization id'}.`,
      );
  }
  for (const name of PROVIDER_BASE_URL_VARIABLES) {
    const value = nonBlank(env[name]);
    const problem = value === undefined ? null : baseUrlProblem(name, value);
    if (problem === null) continue;
    problems.push(problem);
    invalid.push(name);
  }
  // An invalid base URL is left out (the fallback resolution of a doctor then uses the provider's default).
  // Keys set with `council keys set` live in <home>/keys (mode 0600); one open to others is refused, naming the fix.
  const keysFile = readKeysFile(home);
  if (keysFile.status === 'refused') problems.push(keysFile.problem);
  const secrets = readSecrets(env, new Set(invalid), keysFile.keys);
  const org = flags.org !== undefined ? flags.org : (parsed.LLM_COUNCIL_ORG ?? null);
  const biasPersistence = flags.biasPersistence ?? parsed.LLM_COUNCIL_BIAS_PERSISTENCE ?? false;
  const consentLevel = flags.consentLevel ?? parsed.LLM_COUNCIL_BIAS_CONSENT ?? 1;
  const secretNames = [
    ...(secrets.hashSecret === null ? [] : ['LLM_COUNCIL_HASH_SECRET']),
    ...(secrets.cloudToken === null ? [] : ['LLM_COUNCIL_CLOUD_TOKEN']),
  ];
  const values: Omit<CouncilSettings, 'secrets'> = {
    home,
    homeSource,
    files: {
      // The configuration cascade's files: core's layout, the one place that knows it.
      ...configFilesInHome(home, org),
      biasStore: paths.biasMetrics,
      contributions: paths.contributions,
      history: paths.history,
      outbox: paths.telemetryOutbox,
      sentCursor: paths.telemetrySentCursor,
      deadLetter: paths.telemetryDeadLetter,
    },
    models: (parsed.LLM_COUNCIL_MODELS ?? '')
      .split(',')
      .map((m) => m.trim())
      .filter((m) => m !== ''),
    chairman: parsed.LLM_COUNCIL_CHAIRMAN ?? null,
    org,
    orgSource: org === null ? null : flags.org !== undefined ? '--org' : 'LLM_COUNCIL_ORG',
    biasAudit: parsed.LLM_COUNCIL_BIAS_AUDIT ?? null,
    biasPersistence,
    consentLevel,
    writesBiasRecords: biasPersistence && consentLevel >= 1,
    biasWindow: {
      sessions: parsed.LLM_COUNCIL_BIAS_WINDOW_SESSIONS ?? DEFAULT_BIAS_WINDOW.sessions,
      days: parsed.LLM_COUNCIL_BIAS_WINDOW_DAYS ?? DEFAULT_BIAS_WINDOW.days,
    },
    minSessions: parsed.LLM_COUNCIL_MIN_BIAS_SESSIONS ?? 20,
    biasThresholds: {
      lengthCorrelation: parsed.LLM_COUNCIL_LENGTH_CORRELATION_THRESHOLD ?? 0.3,
      positionVariance: parsed.LLM_COUNCIL_POSITION_VARIANCE_THRESHOLD ?? 0.5,
    },
    randomSeed: parsed.LLM_COUNCIL_RANDOM_SEED ?? null,
    hashSecretSet: secrets.hashSecret !== null,
    cloudUrl: parsed.LLM_COUNCIL_CLOUD_URL ?? null,
    cloudTokenSet: secrets.cloudToken !== null,
    apiKeys: Object.fromEntries(
      PROVIDER_KEY_VARIABLES.map((name) => [name, secrets.providerEnv[name] !== undefined]),
    ) as CouncilSettings['apiKeys'],
    // As shown (doctor, config show): scrubbed. The values as set, to call the servers with, stay in `secrets`.
    baseUrls: Object.fromEntries(
      PROVIDER_BASE_URL_VARIABLES.flatMap((name) =>
        secrets.providerEnv[name] === undefined ? [] : [[name, scrubSecrets(secrets.providerEnv[name])]],
      ),
    ),
    variablesSet: [...Object.keys(raw), ...secretNames].filter((name) => !invalid.includes(name)).sort(),
  };
  // `secrets` is defined here, not enumerable: JSON.stringify and console.log of the settings never show it.
  const settings = Object.defineProperty(values, 'secrets', { value: secrets, enumerable: false }) as CouncilSettings;
  return { settings, problems, invalid };
}

/** The result of `safeResolveCouncilSettings`; on failure, `fallback` has the defaults in place of each invalid value. */
export type SafeCouncilSettingsResult =
  { success: true; value: CouncilSettings } | { success: false; error: CliError; fallback: CouncilSettings };

/**
 * Resolves the settings (see `resolveCouncilSettings`) without throwing. Every invalid variable is
 * reported at once, one sentence each.
 */
export function safeResolveCouncilSettings(env: Env, flags: CouncilSettingsFlags = {}): SafeCouncilSettingsResult {
  const first = resolveOnce(env, flags);
  if (first.problems.length === 0) return { success: true, value: first.settings };
  const error = new CliError({ code: 'USAGE', message: first.problems.join(' ') });
  const kept = Object.fromEntries(Object.entries(env).filter(([name]) => !first.invalid.includes(name)));
  const { home: _home, biasStore: _store, ...validFlags } = flags;
  // A bad --home or store flag falls back to the environment's (or the default) home.
  const fallbackFlags = first.problems.some((p) => p.startsWith('--home') || p.startsWith('The bias store path'))
    ? validFlags
    : flags;
  return { success: false, error, fallback: resolveOnce(kept, fallbackFlags).settings };
}

/**
 * Council's settings from an environment and the global flags, validated with zod: flags over the
 * environment over the defaults. The home is `--home`, else `LLM_COUNCIL_HOME`, else `~/.llm-council`;
 * `~` and `~/…` are the user's home (`HOME`), and a relative path is taken from `flags.cwd`. A set but
 * invalid value is a `CliError` (`USAGE`, exit 2) naming the variable and what to do, never a silent default.
 * Key values are kept in the non-enumerable `secrets`, never in a message.
 */
export function resolveCouncilSettings(env: Env, flags: CouncilSettingsFlags = {}): CouncilSettings {
  const result = safeResolveCouncilSettings(env, flags);
  if (!result.success) throw result.error;
  return result.value;
}
