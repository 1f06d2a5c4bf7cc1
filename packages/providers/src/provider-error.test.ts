import { describe, expect, it } from 'vitest';
import { ProviderError } from './provider-error.js';

describe('ProviderError', () => {
  it('carries its code, message and cause', () => {
    const cause = new Error('underlying');
    const error = new ProviderError({ code: 'INVALID_SETTINGS', message: 'what went wrong', cause });
    expect(error.name).toBe('ProviderError');
    expect(error.message).toBe('what went wrong');
    expect(error.cause).toBe(cause);
    expect(error).toBeInstanceOf(Error);
  });

  it('is recognised across copies of the package by its global marker, and nothing else is', () => {
    const fromAnotherCopy = Object.assign(new Error('x'), { [Symbol.for('council.error.ProviderError')]: true });
    expect(ProviderError.isInstance(fromAnotherCopy)).toBe(true);
    expect(ProviderError.isInstance(new Error('plain'))).toBe(false);
    expect(ProviderError.isInstance({ [Symbol.for('council.error.SomethingElse')]: true })).toBe(false);
    expect(ProviderError.isInstance(null)).toBe(false);
  });
});
