import { timingSafeEqual } from 'node:crypto';

/** Why a request to the local server is refused, as an HTTP status and one line; null when it may proceed. */
export interface Refusal {
  status: 401 | 403;
  message: string;
}

/** The request headers the checks read, lower-case names (Node's `req.headers` is one). */
export interface LocalRequestHeaders {
  host?: string | undefined;
  origin?: string | undefined;
  authorization?: string | undefined;
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The host names a request may address: the bound one, and `localhost` beside a loopback address. */
export function allowedHosts(options: { host: string; port: number }): string[] {
  const names = [options.host.includes(':') ? `[${options.host}]` : options.host];
  if (options.host === '127.0.0.1' || options.host === '::1') names.push('localhost');
  return names.map((name) => `${name}:${options.port}`);
}

/**
 * The address rules: the `Host` must be the bound host (a DNS-rebinding name is refused), and an `Origin`,
 * when a browser sends one, must be that same host (a page of another site is refused).
 */
export function checkLocalAddress(
  headers: LocalRequestHeaders,
  options: { host: string; port: number },
): Refusal | null {
  const hosts = allowedHosts(options);
  const host = headers.host ?? '';
  if (!hosts.includes(host.toLowerCase()))
    return { status: 403, message: `Host "${host}" is not this server's address.` };
  const origin = headers.origin;
  if (origin !== undefined && !hosts.some((h) => origin.toLowerCase() === `http://${h}`))
    return { status: 403, message: 'Cross-origin requests are refused.' };
  return null;
}

/** The per-launch token as `Authorization: Bearer`, compared in constant time; `issuer` names the command that printed it. */
export function checkBearerToken(
  headers: LocalRequestHeaders,
  options: { token: string; issuer?: string },
): Refusal | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(headers.authorization ?? '');
  if (match !== null && sameSecret(match[1]!, options.token)) return null;
  return {
    status: 401,
    message: `Missing or wrong token: send "Authorization: Bearer <token>" with the token ${options.issuer ?? 'council mcp'} printed.`,
  };
}

/**
 * The rules every request to a local Council server obeys, so that a page on another site cannot spend the
 * user's API credits: the address rules (`checkLocalAddress`) and the per-launch token (`checkBearerToken`).
 */
export function checkLocalRequest(
  headers: LocalRequestHeaders,
  options: { host: string; port: number; token: string; issuer?: string },
): Refusal | null {
  return checkLocalAddress(headers, options) ?? checkBearerToken(headers, options);
}
