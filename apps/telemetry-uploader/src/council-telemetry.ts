import packageJson from '../package.json' with { type: 'json' };

const usage = `council-telemetry ${packageJson.version}

Sends the consented session summaries queued in $LLM_COUNCIL_HOME/telemetry/outbox.jsonl to council-cloud.

Usage:
  council-telemetry --help
  council-telemetry --version
`;

const args = process.argv.slice(2);
if (args.includes('--version') || args.includes('-v')) {
  process.stdout.write(`${packageJson.version}\n`);
} else if (args.length === 0 || args.includes('--help') || args.includes('-h')) {
  process.stdout.write(usage);
} else {
  process.stderr.write(`council-telemetry: unknown command "${args[0]}". Run "council-telemetry --help" to see the commands.\n`);
  process.exitCode = 2;
}
