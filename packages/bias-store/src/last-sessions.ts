/**
 * The items of the last `limit` sessions, ranked by each session's latest item, gathered in one pass over a
 * store without holding every session: past `4 × limit` (at least 1,024) sessions held, the oldest are dropped
 * from memory and only their latest time is kept. A dropped session that ends up among the last N after all is named
 * by `choose`, for a second pass to read again.
 */
export class LastSessions<T> {
  private readonly held = new Map<string, { latest: number; items: { item: T; ms: number }[] }>();
  /** Sessions dropped from memory: their latest time. */
  private readonly dropped = new Map<string, number>();
  private readonly pruneAt: number;

  constructor(private readonly limit: number) {
    this.pruneAt = Math.max(4 * limit, 1024);
  }

  add(id: string, item: T, ms: number): void {
    const droppedLatest = this.dropped.get(id);
    if (droppedLatest !== undefined) {
      this.dropped.set(id, Math.max(droppedLatest, ms));
      return;
    }
    let session = this.held.get(id);
    if (session === undefined) {
      session = { latest: ms, items: [] };
      this.held.set(id, session);
      if (this.held.size > this.pruneAt) this.prune();
      if (!this.held.has(id)) return; // the new session was the oldest: dropped at once, its time kept
    }
    session.items.push({ item, ms });
    if (ms > session.latest) session.latest = ms;
  }

  /**
   * Hands the held items of the last `limit` sessions to `keep` (latest session first, each in file order), and
   * returns the ones among them that were dropped from memory, whose items must be read again.
   */
  choose(keep: (item: T, ms: number) => void): Set<string> {
    const ranked = latestFirst([...[...this.held].map(([id, s]) => [id, s.latest] as const), ...this.dropped]);
    const chosen = ranked.slice(0, this.limit).map(([id]) => id);
    for (const id of chosen) for (const k of this.held.get(id)?.items ?? []) keep(k.item, k.ms);
    return new Set(chosen.filter((id) => !this.held.has(id)));
  }

  private prune(): void {
    for (const [id] of latestFirst([...this.held].map(([id, s]) => [id, s.latest] as const)).slice(this.limit)) {
      this.dropped.set(id, this.held.get(id)!.latest);
      this.held.delete(id);
    }
  }
}

/** Sessions by latest time, latest first; ties by id. */
function latestFirst(sessions: (readonly [string, number])[]): (readonly [string, number])[] {
  return sessions.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
}
