import { BiasAuditError } from '@council/bias-audit';
import { BiasStoreError } from '@council/bias-store';
import { CouncilError } from '@council/core';
import { ModelNotFoundError, ProviderError } from '@council/providers';
import { ScoringError } from '@council/scoring';
import { describe, expect, it } from 'vitest';
import { CliError } from './cli-error.js';
import { cliErrorKind } from './cli-error-kind.js';
import { TelemetryUploadError } from './telemetry-upload/telemetry-upload-error.js';

// The README's promise: exit 2 for a usage or configuration error (a bad option, an invalid LLM_COUNCIL_* value),
// exit 1 for a runtime failure (a model, the network, a file). These are the codes that meant "usage" before the
// kinds were tabled per package, and a few that never did.
describe('cliErrorKind', () => {
  it('takes a CliError at its code', () => {
    expect(cliErrorKind(new CliError({ code: 'USAGE', message: 'x' }))).toBe('USAGE');
    expect(cliErrorKind(new CliError({ code: 'RUNTIME', message: 'x' }))).toBe('RUNTIME');
  });

  it('calls cac parse errors usage errors', () => {
    expect(cliErrorKind(Object.assign(new Error('Unknown option `--frob`'), { name: 'CACError' }))).toBe('USAGE');
  });

  it.each([
    ['a configuration file or variable', new CouncilError({ code: 'INVALID_CONFIG', message: 'x' })],
    ['an unknown strategy', new CouncilError({ code: 'UNKNOWN_STRATEGY', message: 'x' })],
    ['an invalid personality file', new CouncilError({ code: 'PERSONALITY_INVALID', message: 'x' })],
    ['an invalid LLM_COUNCIL_BIAS_* value', new BiasStoreError({ code: 'INVALID_CONFIG', message: 'x' })],
    ['an input pattern that matches nothing', new BiasStoreError({ code: 'INVALID_OPTION', message: 'x' })],
    ['a model id without a provider', new ProviderError({ code: 'UNKNOWN_PROVIDER', message: 'x' })],
    ['an empty model id', new ProviderError({ code: 'INVALID_SETTINGS', message: 'x' })],
    ['an out-of-range scoring option', new ScoringError({ code: 'INVALID_OPTION', message: 'x' })],
    ['an out-of-range audit option', new BiasAuditError({ code: 'INVALID_OPTION', message: 'x' })],
    [
      'council-telemetry without LLM_COUNCIL_CLOUD_URL',
      new TelemetryUploadError({ code: 'MISSING_CONFIG', message: 'x' }),
    ],
    [
      'an invalid LLM_COUNCIL_* value for council-telemetry',
      new TelemetryUploadError({ code: 'INVALID_CONFIG', message: 'x' }),
    ],
  ])('calls %s a usage error', (_what, error) => {
    expect(cliErrorKind(error)).toBe('USAGE');
  });

  it.each([
    ['a quorum not met', new CouncilError({ code: 'QUORUM_NOT_MET', message: 'x' })],
    ['a file the store cannot write', new BiasStoreError({ code: 'IO_ERROR', message: 'x' })],
    ["an engine's window beyond memory", new BiasStoreError({ code: 'TOO_LARGE', message: 'x' })],
    ['a missing API key', new ProviderError({ code: 'MISSING_API_KEY', message: 'x' })],
    [
      'council-cloud unreachable after the retries',
      new TelemetryUploadError({ code: 'UNAVAILABLE', message: 'x', isRetryable: true }),
    ],
    [
      'a model the provider does not know (a subclass of ProviderError)',
      new ModelNotFoundError({
        message: 'x',
        provider: 'openrouter',
        url: 'http://127.0.0.1/',
        statusCode: 404,
        modelId: 'a/b',
      }),
    ],
    ['a file system error', Object.assign(new Error('ENOENT: no such file'), { code: 'ENOENT' })],
    ['an error without a code', new Error('x')],
    ['a thrown string', 'x'],
  ])('calls %s a runtime failure', (_what, error) => {
    expect(cliErrorKind(error)).toBe('RUNTIME');
  });

  it('goes by the package that threw, not by a code that happens to look like a usage code', () => {
    expect(cliErrorKind(Object.assign(new Error('x'), { code: 'INVALID_CONFIG' }))).toBe('RUNTIME');
  });
});
