import type { CliIo } from './cli-io.js';
import type { Style } from './create-style.js';
import type { OwnInvocation } from './own-invocation.js';
import { omitUndefined } from './omit-undefined.js';
import type { CouncilSettings, CouncilSettingsFlags, Env } from './settings/council-settings.js';
import { resolveCouncilSettings, safeResolveCouncilSettings } from './settings/resolve-council-settings.js';
import type { SafeCouncilSettingsResult } from './settings/resolve-council-settings.js';

/** What every command function receives besides its own options: where to write and what the world looks like. */
export interface CommandContext {
  io: CliIo;
  /**
   * The environment the CLI was started with (handed in by its top level). Commands never read it for
   * Council's variables: those come from `commandSettings(ctx)`. It is read directly only for the terminal
   * conventions (`NO_COLOR`, `FORCE_COLOR`, `TERM`).
   */
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
  /** How the user can run this executable again (see `ownInvocation`), for hints; absent: `council`. */
  invocation?: (() => OwnInvocation) | undefined;
}

const resolved = new WeakMap<object, CouncilSettings>();

/**
 * The settings of this run: `ctx.env` and the global flags (`--home`) resolved once by the settings module
 * (`resolveCouncilSettings`) and remembered for the context. `overrides` are a command's own flags
 * (e.g. `demo`'s home and consent), which win over the environment. Throws a usage error naming an invalid variable.
 */
export function commandSettings(
  ctx: Pick<CommandContext, 'env' | 'home' | 'cwd'>,
  overrides?: Omit<CouncilSettingsFlags, 'cwd'>,
): CouncilSettings {
  const flags: CouncilSettingsFlags = {
    cwd: ctx.cwd,
    ...omitUndefined({ home: ctx.home }),
    ...overrides,
  };
  if (overrides !== undefined) return resolveCouncilSettings(ctx.env, flags);
  const known = resolved.get(ctx);
  if (known !== undefined) return known;
  const settings = resolveCouncilSettings(ctx.env, flags);
  resolved.set(ctx, settings);
  return settings;
}

/** `commandSettings` without throwing: `council doctor` reports an invalid variable and goes on with the defaults for it. */
export function safeCommandSettings(ctx: Pick<CommandContext, 'env' | 'home' | 'cwd'>): SafeCouncilSettingsResult {
  return safeResolveCouncilSettings(ctx.env, { cwd: ctx.cwd, ...omitUndefined({ home: ctx.home }) });
}
