import { describe, expect, it } from 'vitest';
import { stripUrlCredentials } from './strip-url-credentials.js';

describe('stripUrlCredentials', () => {
  it('drops the user-info and keeps the rest as written', () => {
    expect(stripUrlCredentials('https://user:tok3n@council.example.com/v1/ingest?x=1')).toBe(
      'https://council.example.com/v1/ingest?x=1',
    );
    expect(stripUrlCredentials('https://tok3n@council.example.com')).toBe('https://council.example.com');
    // An @ in the password is part of the user-info; one after the path starts is not.
    expect(stripUrlCredentials('http://u:p@ss@127.0.0.1:8080/a@b')).toBe('http://127.0.0.1:8080/a@b');
  });

  it('leaves a URL without user-info, and text that is not a URL, unchanged', () => {
    expect(stripUrlCredentials('https://council.example.com/path@v2')).toBe('https://council.example.com/path@v2');
    expect(stripUrlCredentials('https://council.example.com?to=a@b')).toBe('https://council.example.com?to=a@b');
    expect(stripUrlCredentials('not a url @ all')).toBe('not a url @ all');
  });
});
