import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';

/** The files Council keeps under `$LLM_COUNCIL_HOME` (default `~/.llm-council`). */
export interface CouncilPaths {
  /** `$LLM_COUNCIL_HOME`, absolute. */
  home: string;
  /** `LLM_COUNCIL_BIAS_STORE` if set, else `<home>/bias_metrics.jsonl`. */
  biasMetrics: string;
  /** `<home>/history.jsonl` */
  history: string;
  /** `<home>/telemetry/outbox.jsonl` */
  telemetryOutbox: string;
  /** `<home>/telemetry/sent.cursor` */
  telemetrySentCursor: string;
  /** `<home>/telemetry/dead-letter.jsonl` */
  telemetryDeadLetter: string;
}

type Env = Readonly<Record<string, string | undefined>>;

function userHome(env: Env): string {
  const fromEnv = env.HOME ?? env.USERPROFILE;
  return fromEnv !== undefined && fromEnv !== '' ? fromEnv : homedir();
}

/** Expands a leading `~` to the user's home directory and makes the path absolute (relative to the working directory). */
export function expandHomePath(path: string, env: Env = process.env): string {
  if (path === '~') return userHome(env);
  if (path.startsWith('~/') || path.startsWith('~\\')) return join(userHome(env), path.slice(2));
  return isAbsolute(path) ? path : resolve(path);
}

/** `$LLM_COUNCIL_HOME` (empty counts as unset), `~` expanded; default `~/.llm-council`. */
export function resolveCouncilHome(env: Env = process.env): string {
  const configured = env.LLM_COUNCIL_HOME;
  return configured !== undefined && configured.trim() !== '' ? expandHomePath(configured.trim(), env) : join(userHome(env), '.llm-council');
}

/** Every file path under `$LLM_COUNCIL_HOME`, from an environment (default `process.env`). */
export function resolveCouncilPaths(env: Env = process.env): CouncilPaths {
  const home = resolveCouncilHome(env);
  const store = env.LLM_COUNCIL_BIAS_STORE;
  return {
    home,
    biasMetrics: store !== undefined && store.trim() !== '' ? expandHomePath(store.trim(), env) : join(home, 'bias_metrics.jsonl'),
    history: join(home, 'history.jsonl'),
    telemetryOutbox: join(home, 'telemetry', 'outbox.jsonl'),
    telemetrySentCursor: join(home, 'telemetry', 'sent.cursor'),
    telemetryDeadLetter: join(home, 'telemetry', 'dead-letter.jsonl'),
  };
}
