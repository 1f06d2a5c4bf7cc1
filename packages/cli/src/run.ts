// The entry the `council` executable uses: only the CLI's two runners, so that starting it loads no more than they need.
export { runCli } from './run-cli.js';
export { runTelemetryCli } from './telemetry-upload/run-telemetry-cli.js';
export { ownInvocation } from './own-invocation.js';
export type { OwnInvocation } from './own-invocation.js';
