import { describe, expect, it } from 'vitest';
import { CouncilError } from './council-error.js';

describe('CouncilError', () => {
  it('carries its code, message and cause', () => {
    const cause = new Error('underlying');
    const error = new CouncilError({ code: 'INVALID_OPTION', message: 'what went wrong', cause });
    expect(error.name).toBe('CouncilError');
    expect(error.message).toBe('what went wrong');
    expect(error.cause).toBe(cause);
    expect(error).toBeInstanceOf(Error);
  });

  it('is recognised across copies of the package by its global marker, and nothing else is', () => {
    const fromAnotherCopy = Object.assign(new Error('x'), { [Symbol.for('council.error.CouncilError')]: true });
    expect(CouncilError.isInstance(fromAnotherCopy)).toBe(true);
    expect(CouncilError.isInstance(new Error('plain'))).toBe(false);
    expect(CouncilError.isInstance({ [Symbol.for('council.error.SomethingElse')]: true })).toBe(false);
    expect(CouncilError.isInstance(null)).toBe(false);
  });
});
