import { describe, expect, it } from 'vitest';
import { isSecretParameter, scrubSecrets } from './scrub-secrets.js';
import { endpointUrl, takeUrlCredentials, urlSecrets } from './url-credentials.js';

describe('scrubSecrets', () => {
  it('removes a URL user-info, up to the last @ of its authority, wherever the URL stands in the text', () => {
    expect(scrubSecrets('https://user:tok3n@council.example.com/v1/ingest')).toBe(
      'https://council.example.com/v1/ingest',
    );
    expect(scrubSecrets('https://tok3n@council.example.com')).toBe('https://council.example.com');
    expect(scrubSecrets('http://u:p@ss@127.0.0.1:8080/a@b')).toBe('http://127.0.0.1:8080/a@b');
    expect(
      scrubSecrets(
        'Request cannot be constructed from a URL that includes credentials: http://user:PASS@127.0.0.1:9/api/v1/chat/completions',
      ),
    ).toBe(
      'Request cannot be constructed from a URL that includes credentials: http://127.0.0.1:9/api/v1/chat/completions',
    );
    // In a JSON string and in quotes: the quote ends the URL.
    expect(scrubSecrets('{"url":"https://a:b@h.example/x","n":"x@y"}')).toBe('{"url":"https://h.example/x","n":"x@y"}');
    expect(scrubSecrets("two: 'http://a:1@one.example' and http://b:2@two.example/")).toBe(
      "two: 'http://one.example' and http://two.example/",
    );
  });

  it('replaces the value of every credential-bearing query parameter, and keeps the others and their order', () => {
    expect(scrubSecrets('GET /v1/models?key=AIzaSECRET&alt=sse')).toBe('GET /v1/models?key=[REDACTED]&alt=sse');
    expect(scrubSecrets('https://h.example/p?a=1&api_key=S1&token=S2&access_token=S3&sig=S4#frag')).toBe(
      'https://h.example/p?a=1&api_key=[REDACTED]&token=[REDACTED]&access_token=[REDACTED]&sig=[REDACTED]#frag',
    );
    // Signed URLs (S3, GCS) and names of the usual forms, whatever their case.
    expect(scrubSecrets('https://b.s3.example/o?X-Amz-Credential=AK%2F1&X-Amz-Signature=abc&X-Amz-Expires=60')).toBe(
      'https://b.s3.example/o?X-Amz-Credential=[REDACTED]&X-Amz-Signature=[REDACTED]&X-Amz-Expires=60',
    );
    expect(scrubSecrets('No route for POST /api/v1/chat/completions?subscription-key=S5;password=S6')).toBe(
      'No route for POST /api/v1/chat/completions?subscription-key=[REDACTED];password=[REDACTED]',
    );
  });

  it('leaves text without credentials as it was, and is idempotent', () => {
    for (const text of [
      'https://council.example.com/path@v2',
      'https://council.example.com?to=a@b',
      'not a url @ all',
      'a=b&c=d',
      'monkey=1?keyboard=2',
      'mail me at x@y.example',
      '',
    ]) {
      expect(scrubSecrets(text)).toBe(text);
    }
    const once = scrubSecrets('http://u:p@h.example/?key=k&x=1');
    expect(once).toBe('http://h.example/?key=[REDACTED]&x=1');
    expect(scrubSecrets(once)).toBe(once);
  });

  it('names the credential-bearing parameters', () => {
    for (const name of [
      'key',
      'KEY',
      'api_key',
      'api-key',
      'apikey',
      'token',
      'access_token',
      'sig',
      'signature',
      'client_secret',
      'x-goog-api-key',
      'private_token',
      'db_password',
    ]) {
      expect(isSecretParameter(name), name).toBe(true);
    }
    for (const name of ['alt', 'model', 'keyboard', 'monkey', 'tokens', 'page', 'api-version'])
      expect(isSecretParameter(name), name).toBe(false);
  });
});

describe('a base URL with a query string and credentials', () => {
  it('endpointUrl puts the path before the base query string, after the path’s own parameters', () => {
    expect(endpointUrl('http://127.0.0.1:9/api/v1?key=K', 'chat/completions')).toBe(
      'http://127.0.0.1:9/api/v1/chat/completions?key=K',
    );
    expect(endpointUrl('http://127.0.0.1:9/api/v1/?key=K#x', '/messages')).toBe(
      'http://127.0.0.1:9/api/v1/messages?key=K',
    );
    expect(endpointUrl('https://g.example/v1beta?key=K', 'models/m:streamGenerateContent?alt=sse')).toBe(
      'https://g.example/v1beta/models/m:streamGenerateContent?alt=sse&key=K',
    );
    expect(endpointUrl('https://api.example/v1', 'chat/completions')).toBe('https://api.example/v1/chat/completions');
  });

  it('takeUrlCredentials moves a user-info into Basic authentication, decoded as the URL encodes it', () => {
    const taken = takeUrlCredentials('http://us%40er:p%3Ass@127.0.0.1:9/v1/chat?key=K');
    expect(taken.url).toBe('http://127.0.0.1:9/v1/chat?key=K');
    // RFC 7617: base64 of "user-id:password" in UTF-8.
    expect(taken.basicAuthorization).toBe(`Basic ${Buffer.from('us@er:p:ss').toString('base64')}`);
    expect(takeUrlCredentials('http://127.0.0.1:9/v1')).toEqual({
      url: 'http://127.0.0.1:9/v1',
      basicAuthorization: undefined,
    });
    expect(takeUrlCredentials('not a url')).toEqual({ url: 'not a url', basicAuthorization: undefined });
  });

  it('urlSecrets lists the password (or a lone user name) and the credential values of the query, as written and decoded', () => {
    expect(urlSecrets('http://user:PA%24S@h.example/v1?key=K%2B1&alt=sse&token=T')).toEqual([
      'PA%24S',
      'PA$S',
      'K%2B1',
      'K+1',
      'T',
    ]);
    expect(urlSecrets('https://TOKEN@h.example/')).toEqual(['TOKEN']);
    expect(urlSecrets('https://h.example/?page=2')).toEqual([]);
  });
});
