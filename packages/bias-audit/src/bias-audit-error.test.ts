import { describe, expect, it } from 'vitest';
import { BiasAuditError } from './bias-audit-error.js';

describe('BiasAuditError', () => {
  it('carries its code, message and cause', () => {
    const cause = new Error('underlying');
    const error = new BiasAuditError({ code: 'INVALID_INPUT', message: 'what went wrong', cause });
    expect(error.name).toBe('BiasAuditError');
    expect(error.message).toBe('what went wrong');
    expect(error.cause).toBe(cause);
    expect(error).toBeInstanceOf(Error);
  });

  it('is recognised across copies of the package by its global marker, and nothing else is', () => {
    const fromAnotherCopy = Object.assign(new Error('x'), { [Symbol.for('council.error.BiasAuditError')]: true });
    expect(BiasAuditError.isInstance(fromAnotherCopy)).toBe(true);
    expect(BiasAuditError.isInstance(new Error('plain'))).toBe(false);
    expect(BiasAuditError.isInstance({ [Symbol.for('council.error.SomethingElse')]: true })).toBe(false);
    expect(BiasAuditError.isInstance(null)).toBe(false);
  });
});
