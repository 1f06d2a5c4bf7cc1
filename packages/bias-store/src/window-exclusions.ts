/** Records the window left out, by the filter that left them out (each record counts under the first that applies). */
export interface BiasWindowExclusions {
  model: number;
  configVersion: number;
  /** Older than the window's `days`. */
  beforeWindow: number;
  /** Timestamped after `now`. */
  future: number;
  /** Of sessions older than the window's last `sessions`. */
  beyondSessions: number;
  /** Of sessions in `leaveOutSessions` (not saved whole yet). An engine that reads a table or other files counts none. */
  unsaved: number;
}

/** A window that has left nothing out yet: every count 0 (a new object each call, to count into). */
export function noWindowExclusions(): BiasWindowExclusions {
  return { model: 0, configVersion: 0, beforeWindow: 0, future: 0, beyondSessions: 0, unsaved: 0 };
}
