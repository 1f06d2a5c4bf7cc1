import { fileURLToPath } from 'node:url';
import { ownInvocation, runCli, runTelemetryCli } from '@council/cli/run';
import packageJson from '../package.json' with { type: 'json' };

process.exitCode = await runCli(process.argv.slice(2), {
  version: packageJson.version,
  // `council telemetry upload …` runs the same upload loop as the council-telemetry executable.
  telemetryUpload: (argv) =>
    runTelemetryCli(['upload', ...argv], { version: packageJson.version, invokedAs: 'council telemetry' }),
  // How hints name this executable: `council` when that is this file on the PATH, else `node <this file>`. Asked
  // only by a command that prints one (the demo), so a start pays nothing for it.
  invocation: () => ownInvocation({ executable: fileURLToPath(import.meta.url), path: process.env['PATH'] }),
});
