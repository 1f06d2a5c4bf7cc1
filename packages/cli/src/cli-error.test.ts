import { describe, expect, it } from 'vitest';
import { CliError } from './cli-error.js';

describe('CliError', () => {
  it('carries its code, message and cause', () => {
    const cause = new Error('underlying');
    const error = new CliError({ code: 'USAGE', message: 'what went wrong', cause });
    expect(error.name).toBe('CliError');
    expect(error.message).toBe('what went wrong');
    expect(error.cause).toBe(cause);
    expect(error).toBeInstanceOf(Error);
  });

  it('is recognised across copies of the package by its global marker, and nothing else is', () => {
    const fromAnotherCopy = Object.assign(new Error('x'), { [Symbol.for('council.error.CliError')]: true });
    expect(CliError.isInstance(fromAnotherCopy)).toBe(true);
    expect(CliError.isInstance(new Error('plain'))).toBe(false);
    expect(CliError.isInstance({ [Symbol.for('council.error.SomethingElse')]: true })).toBe(false);
    expect(CliError.isInstance(null)).toBe(false);
  });
});
