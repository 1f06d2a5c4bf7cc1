import { describe, expect, it } from 'vitest';
import { APICallError } from './api-call-error.js';
import { AuthenticationError } from './authentication-error.js';
import { ContextLengthError } from './context-length-error.js';
import { EmptyResponseError } from './empty-response-error.js';
import { InsufficientCreditsError } from './insufficient-credits-error.js';
import { InvalidResponseError } from './invalid-response-error.js';
import { ModelNotFoundError } from './model-not-found-error.js';
import { ProviderError } from './provider-error.js';
import { RateLimitError } from './rate-limit-error.js';
import { StructuredOutputUnsupportedError } from './structured-output-unsupported-error.js';
import { TimeoutError } from './timeout-error.js';

const http = {
  provider: 'openrouter',
  url: 'http://127.0.0.1:1/v1/chat/completions',
  statusCode: 500,
  responseBody: '{}',
};

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

describe('the error family', () => {
  const cases = [
    {
      error: new APICallError({ ...http, message: 'm', isRetryable: true }),
      name: 'APICallError',
      code: 'API_CALL',
      parents: ['ProviderError'],
    },
    {
      error: new AuthenticationError({ ...http, statusCode: 401, message: 'm' }),
      name: 'AuthenticationError',
      code: 'AUTHENTICATION',
      parents: ['ProviderError', 'APICallError'],
    },
    {
      error: new InsufficientCreditsError({ ...http, statusCode: 402, message: 'm' }),
      name: 'InsufficientCreditsError',
      code: 'INSUFFICIENT_CREDITS',
      parents: ['ProviderError', 'APICallError'],
    },
    {
      error: new ModelNotFoundError({ ...http, statusCode: 404, message: 'm', modelId: 'x/y' }),
      name: 'ModelNotFoundError',
      code: 'MODEL_NOT_FOUND',
      parents: ['ProviderError', 'APICallError'],
    },
    {
      error: new RateLimitError({ ...http, statusCode: 429, message: 'm', retryAfterMs: 2000 }),
      name: 'RateLimitError',
      code: 'RATE_LIMIT',
      parents: ['ProviderError', 'APICallError'],
    },
    {
      error: new TimeoutError({ message: 'm', timeoutMs: 5 }),
      name: 'TimeoutError',
      code: 'TIMEOUT',
      parents: ['ProviderError'],
    },
    {
      error: new InvalidResponseError({ message: 'm' }),
      name: 'InvalidResponseError',
      code: 'INVALID_RESPONSE',
      parents: ['ProviderError'],
    },
    {
      error: new EmptyResponseError({ message: 'm', reason: 'empty', provider: 'p', modelId: 'm' }),
      name: 'EmptyResponseError',
      code: 'EMPTY_RESPONSE',
      parents: ['ProviderError'],
    },
    {
      error: new ContextLengthError({ ...http, statusCode: 400, message: 'm' }),
      name: 'ContextLengthError',
      code: 'CONTEXT_LENGTH_EXCEEDED',
      parents: ['ProviderError', 'APICallError'],
    },
    {
      error: new StructuredOutputUnsupportedError({ ...http, statusCode: 400, message: 'm' }),
      name: 'StructuredOutputUnsupportedError',
      code: 'STRUCTURED_OUTPUT_UNSUPPORTED',
      parents: ['ProviderError', 'APICallError'],
    },
  ] as const;
  const checks: Record<string, (e: unknown) => boolean> = {
    ProviderError: (e) => ProviderError.isInstance(e),
    APICallError: (e) => APICallError.isInstance(e),
    AuthenticationError: (e) => AuthenticationError.isInstance(e),
    InsufficientCreditsError: (e) => InsufficientCreditsError.isInstance(e),
    ModelNotFoundError: (e) => ModelNotFoundError.isInstance(e),
    RateLimitError: (e) => RateLimitError.isInstance(e),
    TimeoutError: (e) => TimeoutError.isInstance(e),
    InvalidResponseError: (e) => InvalidResponseError.isInstance(e),
    EmptyResponseError: (e) => EmptyResponseError.isInstance(e),
    ContextLengthError: (e) => ContextLengthError.isInstance(e),
    StructuredOutputUnsupportedError: (e) => StructuredOutputUnsupportedError.isInstance(e),
  };

  it.each(cases)(
    '$name has its name, code, its own marker and its parents’, and no sibling’s',
    ({ error, name, code, parents }) => {
      expect(error.name).toBe(name);
      expect(error.code).toBe(code);
      for (const [check, fn] of Object.entries(checks)) {
        expect(fn(error), check).toBe(check === name || (parents as readonly string[]).includes(check));
      }
      expect((error as unknown as Record<symbol, unknown>)[Symbol.for(`council.error.${name}`)]).toBe(true);
    },
  );

  it('marks client errors as never retryable and rate limits as retryable', () => {
    expect(new AuthenticationError({ ...http, message: 'm' }).isRetryable).toBe(false);
    expect(new InsufficientCreditsError({ ...http, message: 'm' }).isRetryable).toBe(false);
    expect(new ModelNotFoundError({ ...http, message: 'm', modelId: 'a' }).isRetryable).toBe(false);
    expect(new RateLimitError({ ...http, message: 'm' }).isRetryable).toBe(true);
    expect(new ContextLengthError({ ...http, message: 'm' }).isRetryable).toBe(false);
    expect(new StructuredOutputUnsupportedError({ ...http, message: 'm' }).isRetryable).toBe(false);
  });
});
