// The logic of the `Council gate` GitHub Action (action.yml at the repository root): runs `council gate` on a pull
// request's diff, writes the Markdown summary to $GITHUB_STEP_SUMMARY and as a pull request comment body file, sets
// the step's outputs, and exits with the gate's exit code (0 approve, 1 reject, 2 unclear or incomplete), so the job
// fails unless the council approved. Plain Node (no dependencies): it runs before anything else is installed.
//
// Inputs come as environment variables (action.yml maps them): COUNCIL_GATE_QUESTION, COUNCIL_GATE_POLICY,
// COUNCIL_GATE_MODELS, COUNCIL_GATE_CHAIRMAN, COUNCIL_GATE_VERDICT, COUNCIL_GATE_MIN_MARGIN,
// COUNCIL_GATE_REQUIRE_UNANIMOUS, COUNCIL_GATE_REDACT_SECRETS, COUNCIL_GATE_DEMO, COUNCIL_GATE_EXTRA_ARGS,
// COUNCIL_GATE_BASE / COUNCIL_GATE_HEAD (default: the pull request's base and head commits), and COUNCIL_BIN (the
// `council` executable: a .js/.mjs file run with this Node, or a command on PATH). GitHub's own: GITHUB_EVENT_PATH,
// GITHUB_WORKSPACE, GITHUB_STEP_SUMMARY, GITHUB_OUTPUT, RUNNER_TEMP.
import { spawnSync } from 'node:child_process';
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const env = process.env;
const input = (name) => (env[`COUNCIL_GATE_${name}`] ?? '').trim();
const flag = (name) => /^(true|1|yes)$/i.test(input(name));

/** A marker the comment body starts with, so a workflow can find and update its earlier comment. */
const COMMENT_MARKER = '<!-- council-gate -->';

function fail(message) {
  console.error(`council-gate-action: ${message}`);
  process.exit(2);
}

/** The base and head commits: the inputs, else the pull request event's. */
function commits() {
  let base = input('BASE');
  let head = input('HEAD');
  if ((base === '' || head === '') && env.GITHUB_EVENT_PATH) {
    try {
      const event = JSON.parse(readFileSync(env.GITHUB_EVENT_PATH, 'utf8'));
      base ||= event.pull_request?.base?.sha ?? '';
      head ||= event.pull_request?.head?.sha ?? '';
    } catch (error) {
      fail(`cannot read the event file ${env.GITHUB_EVENT_PATH}: ${error.message}`);
    }
  }
  if (base === '' || head === '')
    fail('no pull request to judge: run on pull_request events, or set the base and head inputs.');
  return { base, head };
}

/** `git diff base...head` in the workspace (what the pull request changes since it branched). */
function pullRequestDiff(workspace, { base, head }) {
  const result = spawnSync('git', ['diff', '--no-color', '--no-ext-diff', `${base}...${head}`], {
    cwd: workspace,
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  if (result.status !== 0)
    fail(
      `git diff ${base}...${head} failed (${(result.stderr || result.error?.message || '').trim()}). Check out with fetch-depth: 0 so both commits are present.`,
    );
  return result.stdout;
}

/** The `council` command: COUNCIL_BIN as a script run with this Node, or as a command. */
function councilCommand() {
  const bin = env.COUNCIL_BIN || 'council';
  return /\.(c|m)?js$/.test(bin) ? { command: process.execPath, prefix: [bin] } : { command: bin, prefix: [] };
}

function gateArgs(files) {
  const args = ['gate'];
  if (input('QUESTION') !== '') args.push(input('QUESTION'));
  const pairs = [
    ['--policy', input('POLICY')],
    ['--models', input('MODELS')],
    ['--chairman', input('CHAIRMAN')],
    ['--verdict', input('VERDICT')],
    ['--min-margin', input('MIN_MARGIN')],
  ];
  for (const [name, value] of pairs) if (value !== '') args.push(name, value);
  if (flag('REQUIRE_UNANIMOUS')) args.push('--require-unanimous');
  if (flag('REDACT_SECRETS')) args.push('--redact-secrets');
  if (flag('DEMO')) args.push('--demo');
  args.push('--evidence', files.diff, '--summary', files.summary, '--transcript', files.transcript, '--json');
  const extra = input('EXTRA_ARGS');
  if (extra !== '') args.push(...extra.split(/\s+/));
  return args;
}

function main() {
  const workspace = env.GITHUB_WORKSPACE || process.cwd();
  const dir = join(env.RUNNER_TEMP || tmpdir(), 'council-gate');
  mkdirSync(dir, { recursive: true });
  const files = {
    diff: join(dir, 'pull-request.diff'),
    summary: join(dir, 'summary.md'),
    comment: join(dir, 'comment.md'),
    transcript: join(dir, 'transcript.json'),
  };
  const diff = pullRequestDiff(workspace, commits());
  if (diff.trim() === '') fail('the pull request changes nothing (empty diff): nothing to judge.');
  writeFileSync(files.diff, diff);

  const { command, prefix } = councilCommand();
  // Run from the workspace, so the repository's .councilignore applies; keys come from the step's env.
  const result = spawnSync(command, [...prefix, ...gateArgs(files)], {
    cwd: workspace,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.error) fail(`cannot run ${command}: ${result.error.message}`);
  const exitCode = result.status ?? 2;
  let document = null;
  try {
    document = JSON.parse(result.stdout);
  } catch {
    // The gate could not run (its error is on stderr above); the summary file says why when it was written.
  }
  let summary;
  try {
    summary = readFileSync(files.summary, 'utf8');
  } catch {
    summary = `## ⚠️ Council gate: UNCLEAR (exit ${exitCode})\n\nThe gate did not run: see the job's log.\n`;
  }
  writeFileSync(files.comment, `${COMMENT_MARKER}\n${summary}`);
  if (env.GITHUB_STEP_SUMMARY) appendFileSync(env.GITHUB_STEP_SUMMARY, summary);
  const decision = document?.decision ?? (exitCode === 0 ? 'approve' : exitCode === 1 ? 'reject' : 'unclear');
  const outputs = {
    decision,
    'exit-code': String(exitCode),
    'summary-file': files.summary,
    'comment-file': files.comment,
    transcript: document?.transcript?.path ?? '',
    'transcript-sha256': document?.transcript?.sha256 ?? '',
  };
  if (env.GITHUB_OUTPUT)
    appendFileSync(
      env.GITHUB_OUTPUT,
      Object.entries(outputs)
        .map(([k, v]) => `${k}=${v}\n`)
        .join(''),
    );
  console.error(`council-gate-action: ${decision} (exit ${exitCode}); comment body in ${files.comment}.`);
  process.exit(exitCode);
}

main();
