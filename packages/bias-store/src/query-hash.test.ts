import { describe, expect, it } from 'vitest';
import { hashQuery } from './query-hash.js';

// Expected values computed independently with Python's standard library, as ADR-018's reference does:
//   hmac.new(secret.encode(), query[:100].encode(), hashlib.sha256).hexdigest()[:16]
const secret = 'test-secret-0123456789';

describe('hashQuery', () => {
  it('is HMAC-SHA256 over the first 100 characters, first 16 hex characters', () => {
    expect(hashQuery({ query: 'What is the capital of France?', secret })).toBe('25b9009373b94624');
  });

  it('truncates by characters (code points), as Python slices, before UTF-8 encoding', () => {
    expect(hashQuery({ query: `${'é'.repeat(150)}tail`, secret })).toBe('c16a7f5ece62339f');
    expect(hashQuery({ query: '😀'.repeat(120), secret })).toBe('0f83333272ebe81a');
  });

  it('ignores everything past the 100th character and depends on the secret', () => {
    const base = 'q'.repeat(100);
    expect(hashQuery({ query: `${base}A`, secret })).toBe(hashQuery({ query: `${base}B`, secret }));
    expect(hashQuery({ query: base, secret })).not.toBe(hashQuery({ query: base, secret: `${secret}x` }));
  });

  it('refuses an empty secret: there is no default', () => {
    expect(() => hashQuery({ query: 'x', secret: '' })).toThrow(/LLM_COUNCIL_HASH_SECRET/);
  });
});
