import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** Why a request to the local server is refused, as an HTTP status and one line; null when it may proceed. */
export interface Refusal {
  status: 401 | 403;
  message: string;
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
 * The rules every request to a local Council server obeys, so that a page on another site cannot spend the
 * user's API credits: the `Host` must be the bound host (a DNS-rebinding name is refused), an `Origin`, when
 * a browser sends one, must be that same host, and the per-launch token must come as `Authorization: Bearer`.
 */
export function checkLocalRequest(req: IncomingMessage, options: { host: string; port: number; token: string }): Refusal | null {
  const hosts = allowedHosts(options);
  const host = req.headers.host ?? '';
  if (!hosts.includes(host.toLowerCase())) return { status: 403, message: `Host "${host}" is not this server's address.` };
  const origin = req.headers.origin;
  if (origin !== undefined && !hosts.some((h) => origin.toLowerCase() === `http://${h}`)) return { status: 403, message: 'Cross-origin requests are refused.' };
  const auth = req.headers.authorization ?? '';
  const match = /^Bearer\s+(\S+)\s*$/i.exec(auth);
  if (match === null || !sameSecret(match[1]!, options.token)) return { status: 401, message: 'Missing or wrong token: send "Authorization: Bearer <token>" with the token council mcp printed.' };
  return null;
}
