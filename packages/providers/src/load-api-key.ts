import { ProviderError } from './provider-error.js';

/** The variables a provider may read its key and base URL from: passed in by the application, never read from the process here. */
export type ProviderEnvironment = Readonly<Record<string, string | undefined>>;

function fromEnvironment(env: ProviderEnvironment | undefined, names: readonly string[]): string | undefined {
  if (env === undefined) return undefined;
  for (const name of names) {
    const value = env[name];
    if (value !== undefined && value.trim() !== '') return value.trim();
  }
  return undefined;
}

/**
 * The API key for one request: the `apiKey` setting, else the first set variable of the `env` setting.
 * Read at request time (never at creation), so a key added to that environment later is seen.
 */
export function loadApiKey(options: {
  apiKey: string | undefined;
  env: ProviderEnvironment | undefined;
  envVars: readonly string[];
  provider: string;
  factory: string;
}): string {
  if (options.apiKey !== undefined && options.apiKey !== '') return options.apiKey;
  const fromEnv = fromEnvironment(options.env, options.envVars);
  if (fromEnv !== undefined) return fromEnv;
  throw new ProviderError({
    code: 'MISSING_API_KEY',
    message: `${options.provider} needs an API key: set ${options.envVars.join(' or ')} in the environment passed as env, or pass apiKey to ${options.factory}().`,
  });
}

/** The optional key of a local server (Ollama, vLLM, LM Studio): the setting or the variable, else none. */
export function loadOptionalApiKey(options: {
  apiKey: string | undefined;
  env: ProviderEnvironment | undefined;
  envVars: readonly string[];
}): string | undefined {
  if (options.apiKey !== undefined && options.apiKey !== '') return options.apiKey;
  return fromEnvironment(options.env, options.envVars);
}

/** A base URL: the setting, else the variable of the `env` setting, else the default; without a trailing slash. */
export function loadBaseUrl(options: {
  baseURL: string | undefined;
  env: ProviderEnvironment | undefined;
  envVar: string | undefined;
  defaultURL: string;
}): string {
  const fromEnv = options.envVar === undefined ? undefined : fromEnvironment(options.env, [options.envVar]);
  const url = options.baseURL ?? fromEnv ?? options.defaultURL;
  return url.replace(/\/+$/, '');
}
