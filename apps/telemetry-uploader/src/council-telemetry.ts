import { runTelemetryCommand } from './run-telemetry-cli.js';

// The `council-telemetry` executable. SIGINT/SIGTERM stop `--watch` after the run in progress
// (the cursor only moves after a 2xx, so stopping harder loses nothing either); a second signal ends at once.
const controller = new AbortController();
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    controller.abort();
    process.once(signal, () => process.exit(130));
  });
}
process.exitCode = await runTelemetryCommand(process.argv.slice(2), { signal: controller.signal });
