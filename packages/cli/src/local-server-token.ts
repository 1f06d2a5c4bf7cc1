import { randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import { CliError } from './cli-error.js';

/** The addresses only this machine reaches. */
export const LOOPBACK_HOSTS: ReadonlySet<string> = new Set(['127.0.0.1', '::1', 'localhost']);
/** The shortest token a server reachable from other machines accepts (a per-launch one is 32 characters). */
export const MIN_REMOTE_TOKEN_LENGTH = 32;

function usage(message: string): CliError {
  return new CliError({ code: 'USAGE', message });
}

/** `0.0.0.0`, `::` and the like: every interface, so no single address a client's `Host` header could name. */
export function isWildcardHost(host: string): boolean {
  return host === '0.0.0.0' || (isIP(host) === 6 && /^[0:]+$/.test(host));
}

/** Refuses a wildcard bind: clients could only reach it under an address the server cannot check. */
export function refuseWildcardHost(host: string): void {
  if (!isWildcardHost(host)) return;
  throw usage(
    `--host ${host} binds every interface, and clients could only reach it under an address the server cannot check: give the one address clients use (e.g. --host 192.168.1.20).`,
  );
}

/**
 * The token clients of a local server must send, checked: visible ASCII (a bearer token cannot hold anything
 * else), at least 32 characters off loopback (where one must be given); on loopback a random one per launch
 * when none is given. `ways` names where a token can come from, for the message (e.g. `--token`).
 */
export function checkedServerToken(options: {
  host: string;
  given: { token: string; source: string } | undefined;
  ways: string;
}): string {
  const { host, given } = options;
  if (given !== undefined && !/^[\x21-\x7e]+$/.test(given.token)) {
    throw usage(
      `The token from ${given.source} holds a character a bearer token cannot have (a space, a control character or a non-ASCII letter; it is not shown here), so no client could send it. Use letters, digits and punctuation only.`,
    );
  }
  if (LOOPBACK_HOSTS.has(host)) return given?.token ?? randomBytes(24).toString('base64url');
  if (given === undefined) {
    throw usage(
      `--host ${host} is reachable from other machines: give a token of at least ${MIN_REMOTE_TOKEN_LENGTH} characters (${options.ways}), or keep the default 127.0.0.1.`,
    );
  }
  if (given.token.length < MIN_REMOTE_TOKEN_LENGTH) {
    throw usage(
      `--host ${host} is reachable from other machines, and the token from ${given.source} has ${given.token.length} characters: give one of at least ${MIN_REMOTE_TOKEN_LENGTH} (e.g. from \`openssl rand -base64 32\`).`,
    );
  }
  return given.token;
}
