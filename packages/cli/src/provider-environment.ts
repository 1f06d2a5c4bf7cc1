/** ADR-018's unified consent levels. */
export const CONSENT_NAMES = ['off', 'local only', 'anonymous', 'enhanced', 'research'] as const;

/** Providers `doctor` can probe, with the variable that points at each and its default address. */
export const PROVIDER_ENDPOINTS = [
  { provider: 'openrouter', keyVariable: 'OPENROUTER_API_KEY', baseUrlVariable: 'OPENROUTER_BASE_URL', defaultBaseUrl: 'https://openrouter.ai/api/v1' },
  { provider: 'openai', keyVariable: 'OPENAI_API_KEY', baseUrlVariable: 'OPENAI_BASE_URL', defaultBaseUrl: 'https://api.openai.com/v1' },
  { provider: 'anthropic', keyVariable: 'ANTHROPIC_API_KEY', baseUrlVariable: 'ANTHROPIC_BASE_URL', defaultBaseUrl: 'https://api.anthropic.com/v1' },
  { provider: 'gemini', keyVariable: 'GEMINI_API_KEY', baseUrlVariable: 'GEMINI_BASE_URL', defaultBaseUrl: 'https://generativelanguage.googleapis.com/v1beta' },
  { provider: 'ollama', keyVariable: null, baseUrlVariable: 'OLLAMA_BASE_URL', defaultBaseUrl: 'http://127.0.0.1:11434/v1' },
] as const;
