import { runCli } from '@council/cli';
import packageJson from '../package.json' with { type: 'json' };

process.exitCode = await runCli(process.argv.slice(2), {
  version: packageJson.version,
  // Packages never import apps: the uploader is composed here, for `council telemetry upload …`.
  telemetryUpload: async (argv) => (await import('@council/telemetry-uploader')).runTelemetryCli(['upload', ...argv]),
});
