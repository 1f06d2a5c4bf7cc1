import type { CommandContext } from '../src/command-context.js';
import { DEMO_MEMBERS } from '../src/commands/demo-command.js';
import { createStyle } from '../src/create-style.js';
import { runCli } from '../src/run-cli.js';
import { serveCouncil } from '../src/serve/serve-council.js';
import type { CouncilServer } from '../src/serve/serve-council.js';
import { captureIo } from '../src/testing/capture-io.js';
import { buildWebAssets } from '../web/build.mjs';

const TOKEN = 'serve-ui-bench-token-0123456789abcdef0123';

/**
 * `council serve` in this process on 127.0.0.1 (a free port) over `home`, its council the demo's simulated
 * members (offline, no key), with the web UI built from web/ exactly as the package's build does; with
 * `demo`, `council demo` first fills the home with 41 sessions (history, bias and contribution records).
 * Resolves with the server and the address `council serve` prints (`…/#token=…`).
 */
export async function startDemoServer(options: {
  home: string;
  demo: boolean;
}): Promise<{ server: CouncilServer; url: string }> {
  const env = {
    LLM_COUNCIL_HOME: options.home,
    LLM_COUNCIL_MODELS: DEMO_MEMBERS.join(','),
    LLM_COUNCIL_CHAIRMAN: DEMO_MEMBERS[0],
    LLM_COUNCIL_BIAS_PERSISTENCE: 'true',
  };
  if (options.demo) {
    const code = await runCli(['demo', '--home', options.home], {
      version: '0.0.0',
      io: captureIo().io,
      env: {},
      cwd: options.home,
    });
    if (code !== 0) throw new Error(`council demo exited ${code}`);
  }
  const ctx: CommandContext = {
    io: captureIo().io,
    env,
    cwd: options.home,
    now: () => new Date(),
    out: createStyle(false),
    err: createStyle(false),
    verbose: false,
    version: '0.0.0',
  };
  const server = await serveCouncil({
    ctx,
    host: '127.0.0.1',
    port: 0,
    token: TOKEN,
    demo: true,
    assets: await buildWebAssets(),
    log: () => undefined,
  });
  return { server, url: `${server.url}/#token=${TOKEN}` };
}
