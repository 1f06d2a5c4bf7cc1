import type { Env } from './council-settings.js';

/** The environment of this process: what `runCli` and `runTelemetryCli` use when their caller passes none. */
export function defaultEnvironment(): Env {
  return process.env;
}
