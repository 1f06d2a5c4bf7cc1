import type * as z from 'zod';
import { InvalidResponseError } from './invalid-response-error.js';
import { errorBodyExcerpt } from './redact-secrets.js';

/** Parses a JSON text against a schema, or throws InvalidResponseError saying what was wrong. */
export function parseJsonResponse<T>(options: {
  text: string;
  schema: z.ZodType<T>;
  url: string;
  provider: string;
  secrets: readonly string[];
}): T {
  let json: unknown;
  try {
    json = JSON.parse(options.text);
  } catch (cause) {
    throw new InvalidResponseError({
      url: options.url,
      responseBody: errorBodyExcerpt(options.text, options.secrets),
      cause,
      message: `${options.provider} sent a response that is not valid JSON (${options.text.length} characters${options.text.length === 0 ? ', empty' : ''}). The server or a proxy in between may have cut it off; retry, and check the base URL points at the API.`,
    });
  }
  const parsed = options.schema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new InvalidResponseError({
      url: options.url,
      responseBody: errorBodyExcerpt(options.text, options.secrets),
      message: `${options.provider} sent a response of an unexpected shape (${issue ? `${issue.path.join('.') || 'body'}: ${issue.message}` : 'invalid'}). Check the base URL points at a ${options.provider}-compatible API.`,
    });
  }
  return parsed.data;
}

/** Reads a whole response body as text and parses it with `parseJsonResponse`. */
export async function readJsonResponse<T>(options: {
  response: Response;
  schema: z.ZodType<T>;
  url: string;
  provider: string;
  secrets: readonly string[];
}): Promise<T> {
  const text = await options.response.text();
  return parseJsonResponse({
    text,
    schema: options.schema,
    url: options.url,
    provider: options.provider,
    secrets: options.secrets,
  });
}
