import { runCli, runTelemetryCli } from '@council/cli/run';
import packageJson from '../package.json' with { type: 'json' };

process.exitCode = await runCli(process.argv.slice(2), {
  version: packageJson.version,
  // `council telemetry upload …` runs the same upload loop as the council-telemetry executable.
  telemetryUpload: (argv) =>
    runTelemetryCli(['upload', ...argv], { version: packageJson.version, invokedAs: 'council telemetry' }),
});
