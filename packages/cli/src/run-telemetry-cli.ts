import type { TelemetryCliOptions } from './telemetry-upload/run-telemetry-cli.js';

export type { TelemetryCliOptions } from './telemetry-upload/run-telemetry-cli.js';

/**
 * `council-telemetry` as a function (see `./telemetry-upload/run-telemetry-cli.ts`): the upload loop, its
 * flags and exit codes. Its modules load when it is called, so importing `@council/cli` (and `council
 * --version`) does not pay for the HTTP client and the event schemas.
 */
export async function runTelemetryCli(argv: readonly string[], options: TelemetryCliOptions): Promise<number> {
  return (await import('./telemetry-upload/run-telemetry-cli.js')).runTelemetryCli(argv, options);
}
