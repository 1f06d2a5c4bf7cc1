// Runs the built `council ask … --json` as a child process against a running fixture (LLAMACPP_BASE_URL), the way
// a user runs it. Asynchronous on purpose: the fixture answers from this same process, so a blocking spawn would
// leave the council waiting for a server that cannot run.
import { spawn } from 'node:child_process';

/** The parts of `council ask --json`'s session document that the real-model runs read. */
export interface CouncilSessionJson {
  sessionId: string;
  stage1: { member: string; model: string; text: string | null; latencyMs: number | null; error: unknown }[];
  stage2: {
    reviewer: string;
    model: string;
    order: string[];
    latencyMs: number | null;
    error: unknown;
    /** How the review was read: 'structured' | 'text' | 'structured-repaired' | 'text-repaired' | 'unread'. */
    readPath?: string;
  }[];
  leaderboard: { candidate: string; finalRank: number }[];
  synthesis: { text: string | null; latencyMs?: number | null } | null;
}

export interface CouncilCliRun {
  exitCode: number | null;
  stdout: string;
  stderr: string;
  /** The parsed session when stdout held one JSON document. */
  session: CouncilSessionJson | undefined;
  wallMs: number;
}

export interface RunCouncilCliOptions {
  cliPath: string;
  question: string;
  members: readonly string[];
  chairman: string;
  /** The fixture's base URL, `http://127.0.0.1:<port>/v1`. */
  baseURL: string;
  /** The variable that gives the provider its base URL (default LLAMACPP_BASE_URL, for `llamacpp:` ids). */
  baseURLEnv?: string;
  home: string;
  /** Deadline of each model call, in `--timeout` syntax (default 10m: a loaded 2-core machine is slow). */
  callTimeout?: string;
  /** Seed of the orders and labels (LLM_COUNCIL_RANDOM_SEED; default 1). */
  seed?: number;
  extraArgs?: readonly string[];
}

export function runCouncilCli(options: RunCouncilCliOptions): Promise<CouncilCliRun> {
  const args = [
    options.cliPath,
    'ask',
    options.question,
    '--models',
    options.members.join(','),
    '--chairman',
    options.chairman,
    '--timeout',
    options.callTimeout ?? '10m',
    '--json',
    ...(options.extraArgs ?? []),
  ];
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    [options.baseURLEnv ?? 'LLAMACPP_BASE_URL']: options.baseURL,
    LLM_COUNCIL_HOME: options.home,
    LLM_COUNCIL_BIAS_PERSISTENCE: 'true',
    LLM_COUNCIL_RANDOM_SEED: String(options.seed ?? 1),
    NO_COLOR: '1',
  };
  const startedAt = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', reject);
    child.on('close', (exitCode) => {
      const stdout = Buffer.concat(out).toString('utf8');
      let session: CouncilSessionJson | undefined;
      try {
        session = JSON.parse(stdout) as CouncilSessionJson;
      } catch {
        session = undefined;
      }
      resolve({
        exitCode,
        stdout,
        stderr: Buffer.concat(err).toString('utf8'),
        session,
        wallMs: performance.now() - startedAt,
      });
    });
  });
}
