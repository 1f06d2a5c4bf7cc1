/**
 * Query-string parameters whose value is a credential, lower-cased with `-` read as `_`: API keys (`key`, Google's
 * `?key=`, `api_key`, `subscription_key`), tokens (`token`, `access_token`, `id_token`), signatures of signed URLs (`sig`, S3's `X-Amz-Signature`, GCS's `X-Goog-Signature`) and passwords.
 */
const secretNames = new Set([
  'key',
  'apikey',
  'api_key',
  'token',
  'access_token',
  'refresh_token',
  'id_token',
  'auth',
  'auth_token',
  'authorization',
  'bearer',
  'jwt',
  'sig',
  'signature',
  'secret',
  'client_secret',
  'password',
  'passwd',
  'pwd',
  'pass',
  'credential',
  'credentials',
  'x_amz_credential',
  'x_amz_security_token',
  'x_goog_credential',
]);

/** Also any name ending so (`x_goog_api_key`, `private_token`, `x_amz_signature`, `db_password`). */
const secretSuffixes = ['_key', '_token', '_secret', '_signature', '_sig', '_password'];

/** True when a query-string parameter of this name carries a credential (its value is never shown). */
export function isSecretParameter(name: string): boolean {
  const normal = name.toLowerCase().replace(/-/g, '_');
  return secretNames.has(normal) || secretSuffixes.some((suffix) => normal.endsWith(suffix));
}

// A URL's user-info: after `scheme://`, up to the last `@` of the authority, which ends at `/`, `?`, `#`, white space
// or a quote (a URL quoted in a message or a JSON string). The run is greedy, so `u:p@ss@host` loses `u:p@ss@`.
const userInfo = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#"'<>`\\]*@/gi;
// A `name=value` pair after `?`, `&` or `;`; the value runs to the next separator, white space or quote.
const parameter = /([?&;])([^\s=&#?;"'<>`\\]+)=([^\s&#;"'<>`\\]*)/g;

/**
 * The one scrubbing function for anything Council shows, writes or sends back: text (a message, an error, a
 * response body, a log line, a URL) with every URL's credentials (`user:password@`) removed and the value of every
 * credential-bearing query parameter (`key=`, `api_key=`, `token=`, `access_token=`, `sig=`, … see
 * `isSecretParameter`) replaced by `[REDACTED]`. The rest is kept as written; text without either is returned as is.
 */
export function scrubSecrets(text: string): string {
  if (!text.includes('@') && !text.includes('=')) return text;
  return text.replace(userInfo, '$1').replace(parameter, (...match: string[]) => {
    const [whole = '', separator = '', name = '', value = ''] = match;
    return value !== '' && value !== '[REDACTED]' && isSecretParameter(name) ? `${separator}${name}=[REDACTED]` : whole;
  });
}
