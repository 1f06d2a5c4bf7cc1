import type { RecordedRequest, TestErrorResponse, TestTextResponse } from './test-response.js';

/** How one vendor's wire format is written by a test server. */
export interface VendorFormat {
  /** Path prefix of the API, e.g. `/v1`; the server's `url` ends with it. */
  basePath: string;
  /** Reads the model and the stream flag from a request, or undefined when the path is not an endpoint. */
  route(request: {
    method: string;
    path: string;
    body: unknown;
  }): { model: string | undefined; stream: boolean } | undefined;
  /** The key the request carries. */
  apiKey(headers: RecordedRequest['headers']): string | undefined;
  /** The error a wrong key gets, echoing the key (as some vendors do) so redaction is tested. */
  authError(received: string | undefined): TestErrorResponse;
  json(response: TestTextResponse, request: RecordedRequest): unknown;
  /** Server-sent events: each string is one `data:` payload, or a full event block when it starts with `event:` or `:`. */
  stream(response: TestTextResponse, request: RecordedRequest): string[];
  errorBody(response: TestErrorResponse): unknown;
  /** The event sent mid-stream for `midStreamError`. */
  streamError(error: { message: string; code?: number | string }): string;
}

export function chunkText(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}
