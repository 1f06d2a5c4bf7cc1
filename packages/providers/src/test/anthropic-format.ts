import type { RecordedRequest, TestTextResponse } from './test-response.js';
import { chunkText } from './vendor-format.js';
import type { VendorFormat } from './vendor-format.js';

const stopReason = { stop: 'end_turn', length: 'max_tokens', 'content-filter': 'refusal' } as const;
const errorType: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  402: 'billing_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  529: 'overloaded_error',
};

function usageOf(response: TestTextResponse): Record<string, number> {
  const u = response.usage ?? { inputTokens: 10, outputTokens: Math.ceil(response.text.length / 4) };
  const cached = u.cachedTokens ?? 0;
  return {
    input_tokens: u.inputTokens - cached,
    output_tokens: u.outputTokens,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: cached,
  };
}

const event = (name: string, data: unknown): string => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;

/** The tool a request forces with `tool_choice: { type: 'tool', name }` (structured output), if any. */
function forcedTool(request: RecordedRequest): string | undefined {
  const choice = (request.body as { tool_choice?: { type?: unknown; name?: unknown } } | undefined)?.tool_choice;
  return choice?.type === 'tool' && typeof choice.name === 'string' ? choice.name : undefined;
}

/** With a forced tool, the answer is a tool_use block whose input is the response's text read as JSON. */
function stopOf(response: TestTextResponse, tool: string | undefined): string {
  return tool !== undefined && (response.finishReason ?? 'stop') === 'stop'
    ? 'tool_use'
    : stopReason[response.finishReason ?? 'stop'];
}

/** Anthropic's Messages API: `POST /v1/messages`, `x-api-key`, named SSE events. */
export function anthropicFormat(): VendorFormat {
  return {
    basePath: '/v1',
    route({ method, path, body }) {
      if (method !== 'POST' || !path.endsWith('/messages')) return undefined;
      const b = (body ?? {}) as { model?: unknown; stream?: unknown };
      return { model: typeof b.model === 'string' ? b.model : undefined, stream: b.stream === true };
    },
    apiKey(headers) {
      const value = headers['x-api-key'];
      return typeof value === 'string' ? value : undefined;
    },
    authError(received) {
      return { kind: 'error', status: 401, message: `invalid x-api-key: ${received ?? '(none)'}` };
    },
    json(response, request) {
      const tool = forcedTool(request);
      const answer =
        tool === undefined
          ? [{ type: 'text', text: response.text }]
          : [{ type: 'tool_use', id: 'toolu_test', name: tool, input: JSON.parse(response.text) as unknown }];
      return {
        id: response.id ?? 'msg_test',
        type: 'message',
        role: 'assistant',
        model: response.model ?? request.model,
        content: [
          ...(response.reasoning === undefined
            ? []
            : [{ type: 'thinking', thinking: response.reasoning, signature: 'sig' }]),
          ...(response.text === '' ? [] : answer),
        ],
        stop_reason: stopOf(response, tool),
        stop_sequence: null,
        usage: usageOf(response),
      };
    },
    stream(response, request) {
      const usage = usageOf(response);
      const events = [
        event('message_start', {
          type: 'message_start',
          message: {
            id: response.id ?? 'msg_test',
            type: 'message',
            role: 'assistant',
            model: response.model ?? request.model,
            content: [],
            stop_reason: null,
            usage: { ...usage, output_tokens: 1 },
          },
        }),
        event('ping', { type: 'ping' }),
      ];
      let index = 0;
      if (response.reasoning !== undefined) {
        events.push(
          event('content_block_start', {
            type: 'content_block_start',
            index,
            content_block: { type: 'thinking', thinking: '' },
          }),
        );
        for (const piece of chunkText(response.reasoning, response.chunkSize ?? 4))
          events.push(
            event('content_block_delta', {
              type: 'content_block_delta',
              index,
              delta: { type: 'thinking_delta', thinking: piece },
            }),
          );
        events.push(event('content_block_stop', { type: 'content_block_stop', index }));
        index++;
      }
      const tool = forcedTool(request);
      if (tool === undefined) {
        events.push(
          event('content_block_start', {
            type: 'content_block_start',
            index,
            content_block: { type: 'text', text: '' },
          }),
        );
        for (const piece of chunkText(response.text, response.chunkSize ?? 4))
          events.push(
            event('content_block_delta', {
              type: 'content_block_delta',
              index,
              delta: { type: 'text_delta', text: piece },
            }),
          );
      } else {
        events.push(
          event('content_block_start', {
            type: 'content_block_start',
            index,
            content_block: { type: 'tool_use', id: 'toolu_test', name: tool, input: {} },
          }),
        );
        for (const piece of chunkText(response.text, response.chunkSize ?? 4))
          events.push(
            event('content_block_delta', {
              type: 'content_block_delta',
              index,
              delta: { type: 'input_json_delta', partial_json: piece },
            }),
          );
      }
      if (response.midStreamError) return events;
      events.push(event('content_block_stop', { type: 'content_block_stop', index }));
      events.push(
        event('message_delta', {
          type: 'message_delta',
          delta: { stop_reason: stopOf(response, tool), stop_sequence: null },
          usage: { output_tokens: usage.output_tokens },
        }),
      );
      events.push(event('message_stop', { type: 'message_stop' }));
      return events;
    },
    errorBody(response) {
      return {
        type: 'error',
        error: { type: response.type ?? errorType[response.status] ?? 'api_error', message: response.message },
      };
    },
    streamError(error) {
      return event('error', {
        type: 'error',
        error: { type: typeof error.code === 'string' ? error.code : 'overloaded_error', message: error.message },
      });
    },
  };
}
