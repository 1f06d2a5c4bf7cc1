// The whole CLI: parse an argument vector, run the command, return the exit code.
export { runCli } from './run-cli.js';
export type { RunCliOptions } from './run-cli.js';
export type { CliIo } from './cli-io.js';
export type { Env } from './settings/council-settings.js';

// Settings: the one reader of the environment (LLM_COUNCIL_*, provider keys' presence) and the global flags.
export { resolveCouncilSettings, safeResolveCouncilSettings } from './settings/resolve-council-settings.js';
export type { SafeCouncilSettingsResult } from './settings/resolve-council-settings.js';
export type {
  BiasThresholds,
  CouncilFiles,
  CouncilSecrets,
  CouncilSettings,
  CouncilSettingsFlags,
} from './settings/council-settings.js';

// `council-telemetry` (apps/telemetry-uploader) as a function: the telemetry upload loop, its flags and exit codes.
export { runTelemetryCli } from './telemetry-upload/run-telemetry-cli.js';
export type { TelemetryCliOptions } from './telemetry-upload/run-telemetry-cli.js';

// Every error the commands throw; `code` is `USAGE` (exit 2) or `RUNTIME` (exit 1).
export { CliError } from './cli-error.js';
export type { CliErrorCode } from './cli-error.js';

// Renderers for other front ends, each taking plain data.
export { renderHtmlReport } from './html/render-html-report.js';
export type { ConfidenceTier, HtmlReportData, ReportMetricRow } from './html/html-report-data.js';
export type { IntervalRow } from './html/interval-chart.js';
export type { TrendPoint } from './html/trend-chart.js';
export { renderProgressFrame } from './render-progress-frame.js';
export type { CellState, CouncilProgress, ProgressStage } from './council-progress.js';
export { createLiveDisplay } from './live-display.js';
export type { LiveDisplay } from './live-display.js';
// The colours renderProgressFrame takes (identity functions when off).
export { createStyle } from './create-style.js';
export type { Style } from './create-style.js';

// `council serve`'s HTTP server (the web UI and its JSON API) for embedders, loaded on demand.
export { loadServeCouncil } from './serve/load-serve-council.js';
export type { CouncilServer, ServeCouncilOptions } from './serve/serve-council.js';
export type { SessionHub, HubRun, SessionRequest } from './serve/session-hub.js';
export type { WebAsset } from './serve/web-assets.js';
