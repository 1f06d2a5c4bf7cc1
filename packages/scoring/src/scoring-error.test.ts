import { describe, expect, it } from 'vitest';
import { ScoringError } from './scoring-error.js';

describe('ScoringError', () => {
  it('carries its code, message and cause', () => {
    const cause = new Error('underlying');
    const error = new ScoringError({ code: 'EMPTY_CANDIDATES', message: 'what went wrong', cause });
    expect(error.name).toBe('ScoringError');
    expect(error.message).toBe('what went wrong');
    expect(error.cause).toBe(cause);
    expect(error).toBeInstanceOf(Error);
  });

  it('is recognised across copies of the package by its global marker, and nothing else is', () => {
    const fromAnotherCopy = Object.assign(new Error('x'), { [Symbol.for('council.error.ScoringError')]: true });
    expect(ScoringError.isInstance(fromAnotherCopy)).toBe(true);
    expect(ScoringError.isInstance(new Error('plain'))).toBe(false);
    expect(ScoringError.isInstance({ [Symbol.for('council.error.SomethingElse')]: true })).toBe(false);
    expect(ScoringError.isInstance(null)).toBe(false);
  });
});
