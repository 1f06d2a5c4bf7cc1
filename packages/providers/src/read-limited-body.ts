import { ResponseTooLargeError } from './response-too-large-error.js';

/** Which call a body belongs to and how many bytes of it may be read. */
export interface BodyLimit {
  provider: string;
  modelId: string;
  limitBytes: number;
}

/**
 * Passes a response body through while counting its bytes, and throws `ResponseTooLargeError` at the first
 * chunk that takes it past the limit (the rest is never read: the caller's abort or `return` closes it), so a
 * reply of any size costs at most the limit in memory.
 */
export async function* limitBody(body: AsyncIterable<Uint8Array>, limit: BodyLimit): AsyncGenerator<Uint8Array> {
  let bytes = 0;
  for await (const chunk of body) {
    bytes += chunk.byteLength;
    if (bytes > limit.limitBytes) throw new ResponseTooLargeError(limit);
    yield chunk;
  }
}

/**
 * Reads a whole body as UTF-8 text, at most `limitBytes` of it. `overflow: 'throw'` (a reply) throws
 * `ResponseTooLargeError` past the limit; `'truncate'` (an error body, only ever shown as an excerpt) keeps the
 * first `limitBytes` and stops reading.
 */
export async function readLimitedText(
  response: Response,
  options: BodyLimit & { overflow: 'throw' | 'truncate' },
): Promise<string> {
  const body = response.body;
  if (body === null) return '';
  const decoder = new TextDecoder();
  let text = '';
  let bytes = 0;
  const reader = (body as ReadableStream<Uint8Array>).getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.byteLength;
      if (bytes > options.limitBytes) {
        if (options.overflow === 'throw') throw new ResponseTooLargeError(options);
        text += decoder.decode(value.subarray(0, value.byteLength - (bytes - options.limitBytes)), { stream: true });
        break;
      }
      text += decoder.decode(value, { stream: true });
    }
    return text + decoder.decode();
  } finally {
    // Stops the download of whatever was not read; a body already read to its end ignores this.
    reader.cancel().catch(() => undefined);
  }
}
