/** The statuses a server refuses an unsupported request field with. */
const statuses = new Set([400, 404, 422, 501]);

/**
 * Words a refusal of structured output names: the field (`response_format`; Gemini's `response_mime_type` and
 * "JSON mode"), the schema, the mechanism (a grammar, a tool), the format.
 */
const words = /response_format|json_schema|structured|schema|grammar|tool|format|response_?mime_?type|json mode/i;

/**
 * Whether an HTTP failure of a request that asked for structured output (`responseFormat`) is the server
 * refusing it: a status of 400, 404, 422 or 501 whose error text (the server's message and body) names
 * `response_format`, `json_schema`, structured output, a schema, a grammar, a tool or a format (or Gemini's
 * `response_mime_type` or "JSON mode"). Only applied to requests that carried a `responseFormat`; a
 * context-length error is recognised first.
 */
export function isStructuredOutputRefusal(failure: { statusCode: number; text: string }): boolean {
  return statuses.has(failure.statusCode) && words.test(failure.text);
}
