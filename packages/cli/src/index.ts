export { CliError } from './cli-error.js';
export type { CliErrorCode } from './cli-error.js';
export { runCli } from './run-cli.js';
export type { CliIo, RunCliOptions } from './run-cli.js';
