import { BiasStoreError } from '@council/bias-store';
import { TelemetryUploadError } from './telemetry-upload-error.js';

/** An expected failure as the run reports it (a store error becomes `IO_ERROR`); anything else is a bug, thrown again. */
export function asUploadError(error: unknown): TelemetryUploadError {
  if (TelemetryUploadError.isInstance(error)) return error;
  if (BiasStoreError.isInstance(error))
    return new TelemetryUploadError({ code: 'IO_ERROR', message: error.message, cause: error });
  throw error;
}
