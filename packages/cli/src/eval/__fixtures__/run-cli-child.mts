// A `council` process for tests that must kill it (SIGKILL mid-run): runs the CLI from source under tsx.
// Usage: node --import tsx run-cli-child.mts <cwd> <council args…>; the environment is the child's own.
import { runCli } from '../../run-cli.js';

const [cwd, ...args] = process.argv.slice(2);
const code = await runCli(args, {
  version: '0.0.0-test',
  io: { stdout: (t) => void process.stdout.write(t), stderr: (t) => void process.stderr.write(t) },
  env: process.env,
  cwd: cwd!,
});
process.exit(code);
