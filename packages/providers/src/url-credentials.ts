import { isSecretParameter } from './scrub-secrets.js';

/**
 * The URL of one endpoint under a base URL: the path appended to the base's path, the base's query string kept after
 * it (after the path's own parameters), the fragment dropped. `http://h/v1?key=k` and `chat/completions` give
 * `http://h/v1/chat/completions?key=k`, where plain concatenation would send the path inside the key's value.
 */
export function endpointUrl(baseURL: string, path: string): string {
  const hash = baseURL.indexOf('#');
  const base = hash === -1 ? baseURL : baseURL.slice(0, hash);
  const [basePath, baseQuery] = splitQuery(base);
  const [endpoint, endpointQuery] = splitQuery(path);
  const query = [endpointQuery, baseQuery].filter((part) => part !== '').join('&');
  return `${basePath.replace(/\/+$/, '')}/${endpoint.replace(/^\/+/, '')}${query === '' ? '' : `?${query}`}`;
}

function splitQuery(text: string): [string, string] {
  const mark = text.indexOf('?');
  return mark === -1 ? [text, ''] : [text.slice(0, mark), text.slice(mark + 1)];
}

function decode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * A request URL without its user-info, and the `Authorization: Basic` header value it held. Fetch refuses a URL that
 * holds credentials (and quotes the whole URL in its error), so `https://user:password@proxy/v1` is sent to
 * `https://proxy/v1` with the user name and password as HTTP Basic authentication, as curl sends them.
 */
export function takeUrlCredentials(url: string): { url: string; basicAuthorization: string | undefined } {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { url, basicAuthorization: undefined };
  }
  if (parsed.username === '' && parsed.password === '') return { url, basicAuthorization: undefined };
  const credentials = `${decode(parsed.username)}:${decode(parsed.password)}`;
  parsed.username = '';
  parsed.password = '';
  // UTF-8 bytes as a binary string for btoa (Node and browsers alike; this package has no `node:` imports).
  const bytes = String.fromCharCode(...new TextEncoder().encode(credentials));
  return { url: parsed.href, basicAuthorization: `Basic ${btoa(bytes)}` };
}

/**
 * The credentials a URL carries, as they may come back in a response body (a proxy quoting the request): the password
 * (or a user name alone, which is often a token: `https://TOKEN@host`) and the values of credential-bearing query
 * parameters, each as written and decoded. Response bodies kept in errors are redacted of these like API keys.
 */
export function urlSecrets(url: string): string[] {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return [];
  }
  const found: string[] = [];
  const credential = parsed.password !== '' ? parsed.password : parsed.username;
  if (credential !== '') found.push(credential, decode(credential));
  const [, query] = splitQuery(url.split('#')[0] ?? url);
  for (const pair of query.split(/[&;]/)) {
    const equals = pair.indexOf('=');
    if (equals <= 0 || !isSecretParameter(decode(pair.slice(0, equals)))) continue;
    const value = pair.slice(equals + 1);
    if (value !== '') found.push(value, decode(value.replace(/\+/g, ' ')));
  }
  return [...new Set(found)];
}
