import { join } from 'node:path';

/** The files of the configuration cascade, absolute: what `loadConfig` reads. */
// A type alias rather than an interface, so that a settings object with more files (the CLI's `CouncilFiles`) can be passed as it is.
export type ConfigFiles = {
  /** The user's layer: `<home>/config.yaml`. A missing file is fine. */
  config: string;
  /** The personalities' directory: `<home>/personalities/`. A missing directory is fine. */
  personalities: string;
  /** The organization's layer, `<home>/organizations/<org>/config/system-prompts.yaml`, or null without an organization. */
  orgConfig: string | null;
};

/**
 * Where the configuration files are under a home directory (DESIGN.md): the one place that knows the layout. The CLI's
 * settings and `loadConfig({ home })` both use it. `org` is not checked here (`orgIdProblem` does that, and
 * `loadConfig` refuses an invalid id before reading anything).
 */
export function configFilesInHome(home: string, org?: string | null): ConfigFiles {
  return {
    config: join(home, 'config.yaml'),
    personalities: join(home, 'personalities'),
    orgConfig:
      org === undefined || org === null ? null : join(home, 'organizations', org, 'config', 'system-prompts.yaml'),
  };
}
