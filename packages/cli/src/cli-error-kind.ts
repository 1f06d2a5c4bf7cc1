import type { BiasAuditErrorCode } from '@council/bias-audit';
import type { BiasStoreErrorCode } from '@council/bias-store';
import type { CouncilErrorCode } from '@council/core';
import type { ProviderErrorCode } from '@council/providers';
import type { ScoringErrorCode } from '@council/scoring';
import { CliError } from './cli-error.js';
import type { CliErrorCode } from './cli-error.js';
import type { TelemetryUploadErrorCode } from './telemetry-upload/telemetry-upload-error.js';

/**
 * The kind of every code of the other Council packages' errors, as the CLI reports it: `USAGE` when the input
 * or the configuration is wrong (exit 2), `RUNTIME` otherwise (exit 1). One table per error root, each complete
 * (`satisfies`), so a code added or renamed in a package fails to compile here until it is given a kind.
 * Keyed by the name in each root's `Symbol.for('council.error.<Name>')` marker, which its subclasses carry too;
 * only types are imported, so reporting an error loads none of those packages.
 */
const kinds: Record<string, Partial<Record<string, CliErrorCode>>> = {
  CouncilError: {
    INVALID_OPTION: 'USAGE',
    QUORUM_NOT_MET: 'RUNTIME',
    INVALID_CONFIG: 'USAGE',
    UNKNOWN_STRATEGY: 'USAGE',
    UNKNOWN_POOL: 'USAGE',
    PERSONALITY_INVALID: 'USAGE',
    MODEL_FAILED: 'RUNTIME',
    ABORTED: 'RUNTIME',
  } satisfies Record<CouncilErrorCode, CliErrorCode>,
  BiasStoreError: {
    INVALID_RECORD: 'RUNTIME',
    INVALID_CONFIG: 'USAGE',
    INVALID_OPTION: 'USAGE',
    INVALID_CURSOR: 'RUNTIME',
    IO_ERROR: 'RUNTIME',
    TOO_LARGE: 'RUNTIME',
  } satisfies Record<BiasStoreErrorCode, CliErrorCode>,
  BiasAuditError: {
    INVALID_INPUT: 'RUNTIME',
    INVALID_OPTION: 'USAGE',
  } satisfies Record<BiasAuditErrorCode, CliErrorCode>,
  ScoringError: {
    EMPTY_CANDIDATES: 'RUNTIME',
    DUPLICATE_CANDIDATE: 'RUNTIME',
    INVALID_CANDIDATE: 'RUNTIME',
    INVALID_WEIGHT: 'RUNTIME',
    INVALID_BALLOT: 'RUNTIME',
    INVALID_OPTION: 'USAGE',
    INVALID_SESSION: 'RUNTIME',
    DUPLICATE_SESSION: 'RUNTIME',
    INSUFFICIENT_DATA: 'RUNTIME',
  } satisfies Record<ScoringErrorCode, CliErrorCode>,
  ProviderError: {
    INVALID_SETTINGS: 'USAGE',
    UNKNOWN_PROVIDER: 'USAGE',
    MISSING_API_KEY: 'RUNTIME',
    API_CALL: 'RUNTIME',
    AUTHENTICATION: 'RUNTIME',
    INSUFFICIENT_CREDITS: 'RUNTIME',
    MODEL_NOT_FOUND: 'RUNTIME',
    RATE_LIMIT: 'RUNTIME',
    TIMEOUT: 'RUNTIME',
    INVALID_RESPONSE: 'RUNTIME',
    EMPTY_RESPONSE: 'RUNTIME',
    RESPONSE_TOO_LARGE: 'RUNTIME',
    CONTEXT_LENGTH_EXCEEDED: 'RUNTIME',
    STRUCTURED_OUTPUT_UNSUPPORTED: 'RUNTIME',
  } satisfies Record<ProviderErrorCode, CliErrorCode>,
  // The upload loop's own root (runTelemetryCli reports it, with these kinds as its exit codes).
  TelemetryUploadError: {
    USAGE: 'USAGE',
    MISSING_CONFIG: 'USAGE',
    INVALID_CONFIG: 'USAGE',
    UNAUTHORIZED: 'RUNTIME',
    CONSENT_VIOLATION: 'RUNTIME',
    UNAVAILABLE: 'RUNTIME',
    UNEXPECTED_RESPONSE: 'RUNTIME',
    INVALID_CURSOR: 'RUNTIME',
    LOCKED: 'RUNTIME',
    IO_ERROR: 'RUNTIME',
  } satisfies Record<TelemetryUploadErrorCode, CliErrorCode>,
};

/** cac's own parse errors (an unknown option, a missing argument), which it throws as plain `CACError`s. */
export function isCacUsageError(error: unknown): boolean {
  return error instanceof Error && error.name === 'CACError';
}

function hasMarker(error: object, name: string): boolean {
  return (error as Record<symbol, unknown>)[Symbol.for(`council.error.${name}`)] === true;
}

/**
 * What kind of failure `error` is: a `CliError`'s own code; `USAGE` for cac's parse errors (an unknown option,
 * a missing argument); for another Council package's error, its code's kind in the table above; else `RUNTIME`.
 */
export function cliErrorKind(error: unknown): CliErrorCode {
  if (CliError.isInstance(error)) return error.code;
  if (isCacUsageError(error)) return 'USAGE';
  if (typeof error !== 'object' || error === null) return 'RUNTIME';
  const code = (error as { code?: unknown }).code;
  if (typeof code !== 'string') return 'RUNTIME';
  for (const [root, codes] of Object.entries(kinds)) {
    if (hasMarker(error, root)) return codes[code] ?? 'RUNTIME';
  }
  return 'RUNTIME';
}
