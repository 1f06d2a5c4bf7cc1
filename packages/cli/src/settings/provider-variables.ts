/**
 * The one table of the providers Council configures from the environment: the key variables each reads
 * (any one will do, in this order), whether it needs a key (hosted) or takes one only when its server was
 * started with one (local), the variable that points at it and its default address. The settings, the
 * model resolver, `checkModels` and `doctor` all read it, so a provider added here is configured, checked
 * and probed alike. Key values are never printed.
 */
export const PROVIDER_VARIABLES = [
  {
    provider: 'openrouter',
    keyVariables: ['OPENROUTER_API_KEY'],
    keyRequired: true,
    baseUrlVariable: 'OPENROUTER_BASE_URL',
    defaultBaseUrl: 'https://openrouter.ai/api/v1',
  },
  {
    provider: 'openai',
    keyVariables: ['OPENAI_API_KEY'],
    keyRequired: true,
    baseUrlVariable: 'OPENAI_BASE_URL',
    defaultBaseUrl: 'https://api.openai.com/v1',
  },
  {
    provider: 'anthropic',
    keyVariables: ['ANTHROPIC_API_KEY'],
    keyRequired: true,
    baseUrlVariable: 'ANTHROPIC_BASE_URL',
    defaultBaseUrl: 'https://api.anthropic.com/v1',
  },
  {
    provider: 'gemini',
    keyVariables: ['GEMINI_API_KEY', 'GOOGLE_API_KEY'],
    keyRequired: true,
    baseUrlVariable: 'GEMINI_BASE_URL',
    defaultBaseUrl: 'https://generativelanguage.googleapis.com/v1beta',
  },
  {
    provider: 'ollama',
    keyVariables: ['OLLAMA_API_KEY'],
    keyRequired: false,
    baseUrlVariable: 'OLLAMA_BASE_URL',
    defaultBaseUrl: 'http://127.0.0.1:11434/v1',
  },
  {
    provider: 'vllm',
    keyVariables: ['VLLM_API_KEY'],
    keyRequired: false,
    baseUrlVariable: 'VLLM_BASE_URL',
    defaultBaseUrl: 'http://127.0.0.1:8000/v1',
  },
  {
    provider: 'lmstudio',
    keyVariables: ['LMSTUDIO_API_KEY'],
    keyRequired: false,
    baseUrlVariable: 'LMSTUDIO_BASE_URL',
    defaultBaseUrl: 'http://127.0.0.1:1234/v1',
  },
  {
    provider: 'llamacpp',
    keyVariables: ['LLAMACPP_API_KEY'],
    keyRequired: false,
    baseUrlVariable: 'LLAMACPP_BASE_URL',
    defaultBaseUrl: 'http://127.0.0.1:8080/v1',
  },
] as const;

export type ProviderVariables = (typeof PROVIDER_VARIABLES)[number];
export type ConfiguredProvider = ProviderVariables['provider'];
