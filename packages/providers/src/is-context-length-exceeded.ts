/** The statuses a context-length refusal comes with (400 from every vendor; 413 and 422 from some proxies). */
const statuses = new Set([400, 413, 422]);

/** How each server says the prompt is longer than the model's context window. */
const patterns: readonly RegExp[] = [
  /context_length_exceeded/i, // OpenAI's error code (and OpenRouter's, LM Studio's)
  /maximum context length/i, // OpenAI, vLLM, OpenRouter: "This model's maximum context length is 8192 tokens"
  /exceeds? (?:the )?(?:available |maximum )?context (?:size|length|limit|window)/i, // llama.cpp, Ollama, Anthropic "exceed context limit"
  /exceed_context_size/i, // llama.cpp's error type
  /\bn_ctx\b/, // llama.cpp's context size parameter, named in its errors
  /maximum model length|max_model_len/i, // vLLM
  /context length of only/i, // LM Studio: "the model is loaded with context length of only 4096 tokens"
  /prompt is too long/i, // Anthropic: "prompt is too long: 208000 tokens > 200000 maximum"
  /exceeds the maximum number of tokens/i, // Gemini: "The input token count (…) exceeds the maximum number of tokens allowed (…)"
];

/**
 * Whether an HTTP failure says the prompt exceeds the model's context window: a status of 400, 413 or 422 and
 * an error text (the server's message and body) in one of the servers' known wordings.
 */
export function isContextLengthExceeded(failure: { statusCode: number; text: string }): boolean {
  return statuses.has(failure.statusCode) && patterns.some((pattern) => pattern.test(failure.text));
}
