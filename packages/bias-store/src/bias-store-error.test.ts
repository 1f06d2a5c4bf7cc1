import { describe, expect, it } from 'vitest';
import { BiasStoreError } from './bias-store-error.js';

describe('BiasStoreError', () => {
  it('carries its code, message and cause', () => {
    const cause = new Error('underlying');
    const error = new BiasStoreError({ code: 'INVALID_RECORD', message: 'what went wrong', cause });
    expect(error.name).toBe('BiasStoreError');
    expect(error.message).toBe('what went wrong');
    expect(error.cause).toBe(cause);
    expect(error).toBeInstanceOf(Error);
  });

  it('is recognised across copies of the package by its global marker, and nothing else is', () => {
    const fromAnotherCopy = Object.assign(new Error('x'), { [Symbol.for('council.error.BiasStoreError')]: true });
    expect(BiasStoreError.isInstance(fromAnotherCopy)).toBe(true);
    expect(BiasStoreError.isInstance(new Error('plain'))).toBe(false);
    expect(BiasStoreError.isInstance({ [Symbol.for('council.error.SomethingElse')]: true })).toBe(false);
    expect(BiasStoreError.isInstance(null)).toBe(false);
  });
});
