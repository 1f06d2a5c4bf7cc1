import type { ApiErrorBody } from './types.js';

/** An API call answered with an error: the server's code and message (or a network failure's). */
export class ApiError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

let token = '';

export function setApiToken(value: string): void {
  token = value;
}

export function authHeaders(): Record<string, string> {
  return { Authorization: `Bearer ${token}` };
}

/** Throws the response's `{ error: { code, message } }` as an ApiError. */
export async function raiseForStatus(response: Response): Promise<void> {
  if (response.ok) return;
  let body: Partial<ApiErrorBody> = {};
  try {
    body = (await response.json()) as Partial<ApiErrorBody>;
  } catch {
    // Not JSON: fall back to the status line below.
  }
  const code = body.error?.code ?? `HTTP_${response.status}`;
  const hint =
    response.status === 401 ? ' Open the address `council serve` printed (it carries the access token).' : '';
  throw new ApiError(code, `${body.error?.message ?? response.statusText}${hint}`, response.status);
}

/** GET or POST JSON under /api with the token. */
export async function api<T>(
  path: string,
  init: { method?: 'GET' | 'POST'; body?: unknown; signal?: AbortSignal } = {},
): Promise<T> {
  let response: Response;
  try {
    response = await fetch(path, {
      method: init.method ?? 'GET',
      headers: { ...authHeaders(), ...(init.body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
      ...(init.signal ? { signal: init.signal } : {}),
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError('NETWORK', 'The council server did not answer. Is `council serve` still running?', 0);
  }
  await raiseForStatus(response);
  return (await response.json()) as T;
}

/** A query string of the defined, non-empty parameters ('' when none). */
export function query(params: Record<string, string | number | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== '') search.set(key, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}
