import type { RecordedRequest, TestTextResponse } from './test-response.js';
import { chunkText } from './vendor-format.js';
import type { VendorFormat } from './vendor-format.js';
import { omitUndefined } from '../internal/omit-undefined.js';

const finish = { stop: 'stop', length: 'length', 'content-filter': 'content_filter' } as const;

function usageOf(response: TestTextResponse, openRouter: boolean): Record<string, unknown> {
  const u = response.usage ?? { inputTokens: 10, outputTokens: Math.ceil(response.text.length / 4) };
  return {
    prompt_tokens: u.inputTokens,
    completion_tokens: u.outputTokens,
    total_tokens: u.inputTokens + u.outputTokens,
    ...(u.cachedTokens === undefined ? {} : { prompt_tokens_details: { cached_tokens: u.cachedTokens } }),
    ...(u.reasoningTokens === undefined ? {} : { completion_tokens_details: { reasoning_tokens: u.reasoningTokens } }),
    ...(openRouter && u.costUsd !== undefined ? { cost: u.costUsd } : {}),
  };
}

/** OpenAI chat completions; with `openRouter`, OpenRouter's additions (`usage.cost`, `reasoning`, errors in 200 bodies). */
export function openAICompatibleFormat(options: { openRouter: boolean }): VendorFormat {
  const { openRouter } = options;
  const reasoningField = openRouter ? 'reasoning' : 'reasoning_content';
  return {
    basePath: openRouter ? '/api/v1' : '/v1',
    route({ method, path, body }) {
      if (method !== 'POST' || !path.endsWith('/chat/completions')) return undefined;
      const b = (body ?? {}) as { model?: unknown; stream?: unknown };
      return { model: typeof b.model === 'string' ? b.model : undefined, stream: b.stream === true };
    },
    apiKey(headers) {
      const value = headers.authorization;
      return typeof value === 'string' && value.startsWith('Bearer ') ? value.slice(7) : undefined;
    },
    authError(received) {
      return {
        kind: 'error',
        status: 401,
        type: 'invalid_api_key',
        message: `Incorrect API key provided: ${received ?? '(none)'}.`,
      };
    },
    json(response, request: RecordedRequest) {
      return {
        id: response.id ?? 'chatcmpl-test',
        object: 'chat.completion',
        created: 1_700_000_000,
        model: response.model ?? request.model,
        ...omitUndefined({ system_fingerprint: response.systemFingerprint }),
        choices: [
          {
            index: 0,
            message: {
              role: 'assistant',
              content: response.text,
              ...omitUndefined({ [reasoningField]: response.reasoning }),
            },
            finish_reason: finish[response.finishReason ?? 'stop'],
          },
        ],
        usage: usageOf(response, openRouter),
      };
    },
    stream(response, request) {
      const base = {
        id: response.id ?? 'chatcmpl-test',
        object: 'chat.completion.chunk',
        created: 1_700_000_000,
        model: response.model ?? request.model,
      };
      const events: string[] = [];
      if (response.comments) events.push(': OPENROUTER PROCESSING\n\n');
      events.push(
        JSON.stringify({
          ...base,
          choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }],
        }),
      );
      for (const piece of chunkText(response.reasoning ?? '', response.chunkSize ?? 4)) {
        events.push(
          JSON.stringify({ ...base, choices: [{ index: 0, delta: { [reasoningField]: piece }, finish_reason: null }] }),
        );
      }
      for (const piece of chunkText(response.text, response.chunkSize ?? 4)) {
        events.push(
          JSON.stringify({ ...base, choices: [{ index: 0, delta: { content: piece }, finish_reason: null }] }),
        );
        if (response.comments) events.push(': OPENROUTER PROCESSING\n\n');
      }
      if (response.midStreamError) return events;
      events.push(
        JSON.stringify({
          ...base,
          choices: [{ index: 0, delta: {}, finish_reason: finish[response.finishReason ?? 'stop'] }],
        }),
      );
      events.push(JSON.stringify({ ...base, choices: [], usage: usageOf(response, openRouter) }));
      events.push('[DONE]');
      return events;
    },
    errorBody(response) {
      return openRouter
        ? {
            error: {
              code: response.status,
              message: response.message,
              ...(response.type === undefined ? {} : { metadata: { type: response.type } }),
            },
          }
        : {
            error: {
              message: response.message,
              type: response.type ?? 'invalid_request_error',
              param: null,
              code: response.type ?? null,
            },
          };
    },
    streamError(error) {
      return JSON.stringify({
        id: 'chatcmpl-test',
        object: 'chat.completion.chunk',
        error: { code: error.code ?? 502, message: error.message },
        choices: [{ index: 0, delta: { content: '' }, finish_reason: 'error' }],
      });
    },
  };
}
