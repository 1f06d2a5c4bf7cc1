import { runCli } from '@council/cli';
import { runTelemetryCli } from '@council/telemetry-uploader';
import packageJson from '../package.json' with { type: 'json' };

process.exitCode = await runCli(process.argv.slice(2), {
  version: packageJson.version,
  // Packages never import apps: the uploader is composed here, for `council telemetry upload …`.
  telemetryUpload: (argv) => runTelemetryCli(['upload', ...argv]),
});
