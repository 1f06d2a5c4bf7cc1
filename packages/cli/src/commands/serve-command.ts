import { spawn } from 'node:child_process';
import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { CliError } from '../cli-error.js';
import type { CommandContext } from '../command-context.js';
import { commandSettings } from '../command-context.js';
import { checkedServerToken, refuseWildcardHost } from '../local-server-token.js';
import type { CouncilServer } from '../serve/serve-council.js';
import { readTokenFile } from '../token-file.js';
import { waitForSignal } from '../wait-for-signal.js';
import type { CouncilSettings } from '../settings/council-settings.js';
import { loadCouncilConfig } from '../settings/load-council-config.js';
import { DEMO_BIASES, DEMO_MEMBERS, DEMO_SESSIONS, runDemoSessions } from './demo-sessions.js';

export interface ServeCommandOptions {
  /** Default 0: a free port. */
  port?: number;
  /** The one address to bind; default 127.0.0.1. Another needs `token`. */
  host?: string;
  /** The bearer token; default a random one per launch (required off loopback, ≥ 32 visible ASCII characters). */
  token?: string;
  /** A file holding the token (so it is not in argv, visible to `ps` and shell history); not with `token`. */
  tokenFile?: string;
  /** Open the page in the default browser. */
  open?: boolean;
  /** Sessions on the demo's simulated personas, saved under a temporary home (or `--home`), offline. */
  demo?: boolean;
}

/** For tests and embedders: stop without a signal, and see the server once it listens. */
export interface ServeLifecycle {
  /** Resolves to the reason to stop (default: the first SIGINT or SIGTERM). */
  stopped?: Promise<string>;
  onListening?: (server: CouncilServer) => void;
}

/** The platform's opener of URLs: `open` on macOS, `start` through cmd on Windows, else `xdg-open`. */
function openCommand(url: string): { command: string; args: string[] } {
  if (process.platform === 'darwin') return { command: 'open', args: [url] };
  if (process.platform === 'win32') return { command: 'cmd', args: ['/c', 'start', '""', url] };
  return { command: 'xdg-open', args: [url] };
}

/** Opens the URL in the browser; a failure is a note (the URL is printed anyway), never an error. */
function openBrowser(url: string, ctx: CommandContext): void {
  const { command, args } = openCommand(url);
  const note = (why: string) =>
    ctx.io.stderr(`note: could not open a browser (${why}): open the URL above yourself.\n`);
  try {
    const child = spawn(command, args, { env: ctx.env, stdio: 'ignore', detached: true });
    child.once('error', (error: NodeJS.ErrnoException) =>
      note(error.code === 'ENOENT' ? `${command} is not installed` : (error.code ?? error.message)),
    );
    child.once('exit', (code) => {
      if (code !== 0 && code !== null) note(`${command} exited with ${code}`);
    });
    child.unref();
  } catch (error) {
    note(error instanceof Error ? error.message : String(error));
  }
}

/** The token given by `--token` or `--token-file`, with where it came from; none for a random one per launch. */
function givenToken(options: ServeCommandOptions, ctx: CommandContext): { token: string; source: string } | undefined {
  if (options.token !== undefined && options.tokenFile !== undefined)
    throw new CliError({ code: 'USAGE', message: '--token and --token-file both give the token: give one of them.' });
  if (options.tokenFile !== undefined)
    return { ...readTokenFile(resolve(ctx.cwd, options.tokenFile)), source: `--token-file ${options.tokenFile}` };
  return options.token === undefined ? undefined : { token: options.token, source: '--token' };
}

/**
 * The demo's context: the demo's simulated members and chairman, bias records on at consent 1 (nothing queued
 * for upload), no organization and never the user's LLM_COUNCIL_BIAS_STORE, under `--home` or a new temporary
 * home, as `council demo` does, so sessions run here show in the history, leaderboard and dashboard (beside the
 * demo's own, which `seedDemoHome` saves there first). Never the user's home unless `--home` names it.
 */
function demoContext(ctx: CommandContext): CommandContext {
  const home = ctx.home ?? mkdtempSync(join(tmpdir(), 'council-serve-demo-'));
  const { LLM_COUNCIL_ORG: _org, LLM_COUNCIL_BIAS_STORE: _store, LLM_COUNCIL_HOME: _home, ...env } = ctx.env;
  return {
    ...ctx,
    home,
    env: {
      ...env,
      LLM_COUNCIL_MODELS: DEMO_MEMBERS.join(','),
      LLM_COUNCIL_CHAIRMAN: DEMO_MEMBERS[0],
      LLM_COUNCIL_BIAS_PERSISTENCE: 'true',
      LLM_COUNCIL_BIAS_CONSENT: '1',
    },
  };
}

/** True when the file exists with something in it (a missing or empty file holds no session). */
function holdsData(path: string): boolean {
  try {
    return statSync(path).size > 0;
  } catch {
    return false;
  }
}

/**
 * A demo home that holds no session yet (a new temporary home, or an empty `--home`) gets the sessions of
 * `council demo` (its personas, seed 1: 41 sessions over the last ten days), so the history, leaderboard, heatmap
 * and bias figures are full on first open. A home with a history or bias records is left as it is. Returns how
 * many sessions were saved.
 */
async function seedDemoHome(settings: CouncilSettings, ctx: CommandContext): Promise<number> {
  const { files } = settings;
  if ([files.history, files.biasStore, files.contributions].some(holdsData)) return 0;
  const { config } = await loadCouncilConfig(settings);
  const plan = { count: DEMO_SESSIONS, seed: 1, now: ctx.now().getTime(), started: Date.now() };
  const sessions = await runDemoSessions({ plan, from: 0, to: plan.count, settings, config, version: ctx.version });
  return sessions.length;
}

/**
 * `council serve`: the chat, history and dashboard in the browser, over a JSON API with live session events,
 * on 127.0.0.1 with a per-launch token. Runs until SIGINT or SIGTERM, then cancels running sessions (they
 * save nothing), closes the streams and returns 0.
 */
export async function runServeCommand(
  options: ServeCommandOptions,
  ctx: CommandContext,
  lifecycle: ServeLifecycle = {},
): Promise<number> {
  const host = options.host ?? '127.0.0.1';
  refuseWildcardHost(host);
  const given = givenToken(options, ctx);
  const token = checkedServerToken({ host, given, ways: '--token-file or --token' });
  const demo = options.demo === true;
  const serverCtx = demo ? demoContext(ctx) : ctx;
  // Resolved now, so an invalid variable is a usage error before anything listens.
  const settings = commandSettings(serverCtx);
  const log = (line: string) => ctx.io.stderr(`council serve: ${line}\n`);
  const seeded = demo ? await seedDemoHome(settings, serverCtx) : 0;
  // Loaded only here: the server and the UI's files are no part of any other command.
  const [{ serveCouncil }, { webAssets }] = await Promise.all([
    import('../serve/serve-council.js'),
    import('../serve/web-assets.js'),
  ]);
  const server = await serveCouncil({
    ctx: serverCtx,
    host: host === 'localhost' ? '127.0.0.1' : host,
    port: options.port ?? 0,
    token,
    demo,
    ...(demo ? { hooks: { simulated: { ...DEMO_BIASES, seed: 1, latencyScale: 6 } } } : {}),
    assets: webAssets(),
    log,
  });
  // The token goes in the fragment, which a browser never sends: not in a request line, a log or a Referer.
  const url = `${server.url}/#token=${given === undefined ? token : given.source === '--token' ? '<the --token you gave>' : `<the token in ${given.source.slice('--token-file '.length)}>`}`;
  ctx.io.stdout(`Council is serving at ${given === undefined ? url : `${server.url}/ (open ${url})`}\n`);
  if (demo) {
    log(`demo: simulated members ${DEMO_MEMBERS.join(', ')}, offline; sessions are saved in ${settings.home}`);
    log(
      seeded > 0
        ? `demo: ${seeded} simulated sessions of council demo saved there first, so the history and dashboard start full`
        : 'demo: the home already holds sessions, so none were added',
    );
  }
  log('press Ctrl-C to stop');
  if (options.open === true && given === undefined) openBrowser(url, ctx);
  else if (options.open === true && given !== undefined)
    ctx.io.stderr(
      `note: --open with ${given.source.split(' ')[0]} does not open a browser (the URL would carry your token in a command line): open the URL above yourself.\n`,
    );
  lifecycle.onListening?.(server);
  const reason = await (lifecycle.stopped ?? waitForSignal());
  const running = server.hub.runs().filter((r) => r.status === 'running');
  const cancelled = running.filter((r) => !r.saving).length;
  const saving = running.length - cancelled;
  const cancelling =
    cancelled > 0
      ? `, cancelling ${cancelled} running session${cancelled === 1 ? '' : 's'} (nothing of them is saved)`
      : '';
  log(
    `${reason}: stopping${cancelling}${saving > 0 ? `, finishing the save of ${saving} session${saving === 1 ? '' : 's'}` : ''}`,
  );
  await server.close();
  return 0;
}
