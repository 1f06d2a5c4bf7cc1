import type { CliIo } from './cli-io.js';
import type { Style } from './create-style.js';
import type { Env } from './read-cli-settings.js';

/** What every command function receives besides its own options: where to write and what the world looks like. */
export interface CommandContext {
  io: CliIo;
  env: Env;
  cwd: string;
  now: () => Date;
  /** Styling for stdout (plain unless stdout is a colour terminal). */
  out: Style;
  /** Styling for stderr. */
  err: Style;
  /** `--verbose`: stacks on errors, more detail where a command has it. */
  verbose: boolean;
  /** `--home <dir>`, overriding `LLM_COUNCIL_HOME`. */
  home?: string;
  /** The executable's version, for reports and telemetry. */
  version: string;
  /** Runs the telemetry uploader (`council telemetry upload …`), injected by the app that bundles it. */
  telemetryUpload?: (argv: readonly string[]) => Promise<number>;
}

/** The environment the command sees, with `--home` applied as `LLM_COUNCIL_HOME` for the packages that read it. */
export function commandEnv(ctx: Pick<CommandContext, 'env' | 'home' | 'cwd'>): Readonly<Record<string, string | undefined>> {
  if (ctx.home === undefined) return ctx.env;
  const home = ctx.home.startsWith('/') ? ctx.home : `${ctx.cwd.replace(/\/+$/, '')}/${ctx.home}`;
  return { ...ctx.env, LLM_COUNCIL_HOME: home };
}
