import { runCli } from '@council/cli';
import packageJson from '../package.json' with { type: 'json' };

process.exitCode = await runCli(process.argv.slice(2), { version: packageJson.version });
