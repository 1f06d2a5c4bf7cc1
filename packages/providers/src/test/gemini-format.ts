import type { TestTextResponse } from './test-response.js';
import { chunkText } from './vendor-format.js';
import type { VendorFormat } from './vendor-format.js';
import { omitUndefined } from '../internal/omit-undefined.js';

const finishReason = { stop: 'STOP', length: 'MAX_TOKENS', 'content-filter': 'SAFETY' } as const;
const statusName: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
};

function usageOf(response: TestTextResponse): Record<string, number> {
  const u = response.usage ?? { inputTokens: 10, outputTokens: Math.ceil(response.text.length / 4) };
  const thoughts = u.reasoningTokens ?? 0;
  return {
    promptTokenCount: u.inputTokens,
    candidatesTokenCount: u.outputTokens - thoughts,
    totalTokenCount: u.inputTokens + u.outputTokens,
    ...(u.reasoningTokens === undefined ? {} : { thoughtsTokenCount: thoughts }),
    ...omitUndefined({ cachedContentTokenCount: u.cachedTokens }),
  };
}

function candidate(options: {
  text: string;
  reasoning?: string | undefined;
  finish?: string;
}): Record<string, unknown> {
  const parts = [
    ...(options.reasoning ? [{ text: options.reasoning, thought: true }] : []),
    ...(options.text === '' ? [] : [{ text: options.text }]),
  ];
  return {
    content: { role: 'model', parts },
    index: 0,
    ...omitUndefined({ finishReason: options.finish }),
  };
}

/** Gemini's `generateContent`: `POST /v1beta/models/{model}:generateContent`, `x-goog-api-key`. */
export function geminiFormat(): VendorFormat {
  return {
    basePath: '/v1beta',
    route({ method, path }) {
      const match = /\/models\/([^/:?]+):(generateContent|streamGenerateContent)(\?.*)?$/.exec(path);
      if (method !== 'POST' || !match) return undefined;
      return { model: decodeURIComponent(match[1]!), stream: match[2] === 'streamGenerateContent' };
    },
    apiKey(headers) {
      const value = headers['x-goog-api-key'];
      return typeof value === 'string' ? value : undefined;
    },
    authError(received) {
      return {
        kind: 'error',
        status: 400,
        type: 'INVALID_ARGUMENT',
        message: `API key not valid. Please pass a valid API key. (got ${received ?? 'none'}; reason API_KEY_INVALID)`,
      };
    },
    json(response, request) {
      return {
        candidates: [
          candidate({
            text: response.text,
            reasoning: response.reasoning,
            finish: finishReason[response.finishReason ?? 'stop'],
          }),
        ],
        usageMetadata: usageOf(response),
        modelVersion: response.model ?? request.model,
        responseId: response.id ?? 'gemini-response-test',
      };
    },
    stream(response, request) {
      const events: string[] = [];
      const base = { modelVersion: response.model ?? request.model, responseId: response.id ?? 'gemini-response-test' };
      if (response.reasoning)
        events.push(JSON.stringify({ ...base, candidates: [candidate({ text: '', reasoning: response.reasoning })] }));
      const pieces = chunkText(response.text, response.chunkSize ?? 4);
      pieces.forEach((piece, i) => {
        const last = i === pieces.length - 1 && !response.midStreamError;
        events.push(
          JSON.stringify({
            ...base,
            candidates: [
              candidate({ text: piece, ...(last ? { finish: finishReason[response.finishReason ?? 'stop'] } : {}) }),
            ],
            ...(last ? { usageMetadata: usageOf(response) } : {}),
          }),
        );
      });
      return events;
    },
    errorBody(response) {
      return {
        error: {
          code: response.status,
          message: response.message,
          status: response.type ?? statusName[response.status] ?? 'UNKNOWN',
        },
      };
    },
    streamError(error) {
      return JSON.stringify({
        error: {
          code: typeof error.code === 'number' ? error.code : 503,
          message: error.message,
          status: 'UNAVAILABLE',
        },
      });
    },
  };
}
