import { ProviderError } from './provider-error.js';

/**
 * The API key for one request: the `apiKey` setting, else the first set environment variable.
 * Read at request time (never at import), so a key exported after start-up is seen.
 */
export function loadApiKey(options: { apiKey: string | undefined; envVars: readonly string[]; provider: string; factory: string }): string {
  if (options.apiKey !== undefined && options.apiKey !== '') return options.apiKey;
  for (const name of options.envVars) {
    const value = process.env[name];
    if (value !== undefined && value.trim() !== '') return value.trim();
  }
  throw new ProviderError({
    code: 'MISSING_API_KEY',
    message: `${options.provider} needs an API key: set ${options.envVars.join(' or ')} in the environment, or pass apiKey to ${options.factory}().`,
  });
}

/** The optional key of a local server (Ollama, vLLM, LM Studio): the setting or the variable, else none. */
export function loadOptionalApiKey(options: { apiKey: string | undefined; envVars: readonly string[] }): string | undefined {
  if (options.apiKey !== undefined && options.apiKey !== '') return options.apiKey;
  for (const name of options.envVars) {
    const value = process.env[name];
    if (value !== undefined && value.trim() !== '') return value.trim();
  }
  return undefined;
}

/** A base URL: the setting, else the environment variable, else the default; without a trailing slash. */
export function loadBaseUrl(options: { baseURL: string | undefined; envVar: string | undefined; defaultURL: string }): string {
  const fromEnv = options.envVar === undefined ? undefined : process.env[options.envVar]?.trim();
  const url = options.baseURL ?? (fromEnv ? fromEnv : options.defaultURL);
  return url.replace(/\/+$/, '');
}
