import { loadApiKey, loadBaseUrl, loadOptionalApiKey } from './load-api-key.js';
import { OpenAICompatibleChatModel } from './openai-compatible-chat-model.js';
import { ProviderError } from './provider-error.js';
import { createProviderRuntime } from './provider-runtime.js';
import type { HttpProviderSettings } from './provider-runtime.js';
import { defineProvider } from './provider-v1.js';
import type { ProviderV1 } from './provider-v1.js';

export interface OpenAICompatibleSettings extends HttpProviderSettings {
  /** The provider's name in results and errors, and its key in `providerOptions`, e.g. `together`. */
  name: string;
  /** Environment variable holding the key, read at each request (e.g. `TOGETHER_API_KEY`). */
  apiKeyEnvVar?: string;
  /** Whether a key is required. Default: true when `apiKeyEnvVar` is given, else false. */
  requireApiKey?: boolean;
  /** Environment variable that overrides the default base URL (e.g. `OLLAMA_BASE_URL`). */
  baseURLEnvVar?: string;
  /** The base URL used when neither `baseURL` nor `baseURLEnvVar` gives one. */
  defaultBaseURL?: string;
  /** Every call costs nothing (local servers): `usage.costUsd` is 0. */
  zeroCost?: boolean;
  /** Which body field carries `maxTokens`; default `max_tokens`. */
  maxTokensField?: 'max_tokens' | 'max_completion_tokens';
}

/** Any server that speaks OpenAI's chat completions: `POST {baseURL}/chat/completions`. */
export function createOpenAICompatible(settings: OpenAICompatibleSettings): ProviderV1 {
  const { name } = settings;
  if (!/^[a-z][a-z0-9-]*$/.test(name)) {
    throw new ProviderError({
      code: 'INVALID_SETTINGS',
      message: `createOpenAICompatible: name "${name}" must be lower-case letters, digits and dashes, starting with a letter (it is used as "${name}:model" in model ids).`,
    });
  }
  if (name === 'simulated') {
    // Its providerOptions namespace is the simulated provider's, which @council/core fills with every call's
    // council context (the answers under review): a server under this name would be sent all of it.
    throw new ProviderError({
      code: 'INVALID_SETTINGS',
      message: `createOpenAICompatible: the name "simulated" belongs to the offline simulated provider (its providerOptions.simulated carries each call's council context, which must not be sent to a server); choose another name.`,
    });
  }
  const defaultURL = settings.defaultBaseURL ?? settings.baseURL;
  if (defaultURL === undefined && settings.baseURLEnvVar === undefined) {
    throw new ProviderError({
      code: 'INVALID_SETTINGS',
      message: `createOpenAICompatible({ name: '${name}' }) needs a baseURL, e.g. 'http://127.0.0.1:8000/v1'.`,
    });
  }
  const runtime = createProviderRuntime(settings);
  const envVars = settings.apiKeyEnvVar === undefined ? [] : [settings.apiKeyEnvVar];
  const requireKey = settings.requireApiKey ?? settings.apiKeyEnvVar !== undefined;
  const keyHint =
    settings.apiKeyEnvVar === undefined ? 'the apiKey setting' : `${settings.apiKeyEnvVar} (or the apiKey setting)`;
  return defineProvider(
    name,
    (modelId) =>
      new OpenAICompatibleChatModel(modelId, {
        provider: name,
        runtime,
        keyHint,
        zeroCost: settings.zeroCost ?? false,
        maxTokensField: settings.maxTokensField ?? 'max_tokens',
        baseURL: () => {
          const url = loadBaseUrl({
            baseURL: settings.baseURL,
            env: settings.env,
            envVar: settings.baseURLEnvVar,
            defaultURL: defaultURL ?? '',
          });
          if (url === '')
            throw new ProviderError({
              code: 'INVALID_SETTINGS',
              message: `${name} has no base URL: set ${settings.baseURLEnvVar ?? 'baseURL'}.`,
            });
          return url;
        },
        apiKey: () =>
          requireKey
            ? loadApiKey({
                apiKey: settings.apiKey,
                env: settings.env,
                envVars,
                provider: name,
                factory: 'createOpenAICompatible',
              })
            : loadOptionalApiKey({ apiKey: settings.apiKey, env: settings.env, envVars }),
        headers: () => ({ ...settings.headers }),
      }),
  );
}
