import { scrubSecrets } from './scrub-secrets.js';

const maxBodyChars = 2_000;

/**
 * Replaces every occurrence of each secret (API keys, a base URL's credentials) with `[REDACTED]`, then scrubs what
 * is left of any URL's credentials and query-string keys (`scrubSecrets`).
 */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  // Longest first, so a secret that contains another is replaced whole.
  for (const secret of [...secrets].sort((a, b) => b.length - a.length)) {
    if (secret.length >= 4) out = out.split(secret).join('[REDACTED]');
  }
  return scrubSecrets(out);
}

/** A response body fit to keep in an error: secrets removed, then cut to 2,000 characters. */
export function errorBodyExcerpt(body: string, secrets: readonly string[]): string {
  const clean = redactSecrets(body, secrets);
  return clean.length <= maxBodyChars
    ? clean
    : `${clean.slice(0, maxBodyChars)}… [${clean.length - maxBodyChars} more characters]`;
}
