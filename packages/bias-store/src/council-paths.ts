import { join } from 'node:path';

/** The files Council keeps under its home directory (`$LLM_COUNCIL_HOME`, default `~/.llm-council`). */
export interface CouncilPaths {
  /** The home directory, as given. */
  home: string;
  /** The bias store given, else `<home>/bias_metrics.jsonl`. */
  biasMetrics: string;
  /** `<home>/contributions.jsonl`: each synthesis's credited members (design doc 004 §7). */
  contributions: string;
  /** `<home>/history.jsonl` */
  history: string;
  /** `<home>/telemetry/outbox.jsonl` */
  telemetryOutbox: string;
  /** `<home>/telemetry/sent.cursor` */
  telemetrySentCursor: string;
  /** `<home>/telemetry/dead-letter.jsonl` */
  telemetryDeadLetter: string;
  /** `<home>/journal/`: the sessions being saved, or not saved whole (`saveSessionWhole`). */
  journal: string;
}

/**
 * Every file path under a home directory. This package reads no environment: the home (and a bias store
 * kept elsewhere, `LLM_COUNCIL_BIAS_STORE`) come resolved and absolute from the caller's settings.
 */
export function councilPaths(home: string, options: { biasMetrics?: string } = {}): CouncilPaths {
  return {
    home,
    biasMetrics: options.biasMetrics ?? join(home, 'bias_metrics.jsonl'),
    contributions: join(home, 'contributions.jsonl'),
    history: join(home, 'history.jsonl'),
    telemetryOutbox: join(home, 'telemetry', 'outbox.jsonl'),
    telemetrySentCursor: join(home, 'telemetry', 'sent.cursor'),
    telemetryDeadLetter: join(home, 'telemetry', 'dead-letter.jsonl'),
    journal: join(home, 'journal'),
  };
}
