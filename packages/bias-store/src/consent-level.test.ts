import { describe, expect, it } from 'vitest';
import { BiasStoreError } from './bias-store-error.js';
import { ConsentLevel, isConsentLevel, parseConsentLevel, safeParseConsentLevel } from './consent-level.js';

describe('ConsentLevel', () => {
  it('numbers the levels as ADR-018 unified consent table does', () => {
    expect(ConsentLevel).toEqual({ OFF: 0, LOCAL_ONLY: 1, ANONYMOUS: 2, ENHANCED: 3, RESEARCH: 4 });
  });

  it('parses digits and names in any case and with dashes', () => {
    expect(parseConsentLevel('0')).toBe(0);
    expect(parseConsentLevel(' 4 ')).toBe(4);
    expect(parseConsentLevel('local_only')).toBe(1);
    expect(parseConsentLevel('Local-Only')).toBe(1);
    expect(parseConsentLevel('RESEARCH')).toBe(4);
    expect(parseConsentLevel('anonymous')).toBe(2);
    expect(parseConsentLevel('enhanced')).toBe(3);
    expect(parseConsentLevel('off')).toBe(0);
  });

  it('rejects anything else, naming the accepted values', () => {
    for (const bad of ['5', '-1', '1.5', 'strict', 'hashed', '']) {
      const result = safeParseConsentLevel(bad);
      expect(result.success).toBe(false);
      if (!result.success) {
        expect(result.error.code).toBe('INVALID_CONFIG');
        expect(result.error.message).toContain('4 (RESEARCH)');
      }
    }
    expect(() => parseConsentLevel('7')).toThrow(BiasStoreError);
  });

  it('recognises exactly the integers 0–4', () => {
    expect([0, 1, 2, 3, 4].every(isConsentLevel)).toBe(true);
    expect([5, -1, 1.5, '1', null].some(isConsentLevel)).toBe(false);
  });
});
