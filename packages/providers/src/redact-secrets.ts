const maxBodyChars = 2_000;

/** Replaces every occurrence of each secret (API keys) with `[REDACTED]`. */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret.length >= 4) out = out.split(secret).join('[REDACTED]');
  }
  return out;
}

/** A response body fit to keep in an error: secrets removed, then cut to 2,000 characters. */
export function errorBodyExcerpt(body: string, secrets: readonly string[]): string {
  const clean = redactSecrets(body, secrets);
  return clean.length <= maxBodyChars ? clean : `${clean.slice(0, maxBodyChars)}… [${clean.length - maxBodyChars} more characters]`;
}
