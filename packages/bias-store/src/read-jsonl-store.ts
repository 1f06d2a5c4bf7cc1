import type { ParsedTimestamp } from './iso-timestamp.js';
import { parseIsoTimestamp } from './iso-timestamp.js';
import type { ItemClock, JsonlReadOptions, ReadWindow } from './jsonl-read-window.js';
import { resolveReadWindow } from './jsonl-read-window.js';
import { LastSessions } from './last-sessions.js';
import type { StoreLines, StoreSink } from './scan-store-lines.js';
import { drainStore } from './scan-store-lines.js';
import type { SkipReport } from './skip-report.js';
import { SkipCounter } from './skip-report.js';
import { zoneWarnings } from './zone-warnings.js';

export interface JsonlReadResult<T> extends SkipReport {
  /** Oldest first when the store knows time (`timeOf`), else in file order. */
  items: T[];
  /** Records whose timestamp had no zone; they were read as UTC. */
  timestampsWithoutZone: number;
  /** Human-readable warnings, e.g. about zone-less timestamps; empty when all is well. */
  warnings: string[];
}

/**
 * `store.read()`: streams every file once and keeps the items the window holds, counting what it skips. With
 * `sessions`, a session dropped from memory early that turns out to be among the last N is read in a second pass.
 */
export async function readJsonlStore<T>(
  store: { lines: StoreLines<T>; clock: ItemClock<T> },
  options: JsonlReadOptions = {},
): Promise<JsonlReadResult<T>> {
  const window = resolveReadWindow(options, store.clock);
  const read = new WindowedRead(window);
  await drainStore(store.lines, read.firstPass());
  const missing = read.chooseSessions();
  if (missing.size > 0) await drainStore(store.lines, read.secondPass(missing));
  const { timestampsWithoutZone } = read;
  return {
    items: read.items(),
    ...read.skips.report(),
    timestampsWithoutZone,
    warnings: zoneWarnings(store.lines.path, timestampsWithoutZone),
  };
}

/** What one read keeps and counts, pass by pass. */
class WindowedRead<T> {
  readonly skips = new SkipCounter();
  timestampsWithoutZone = 0;
  private readonly keptItems: T[] = [];
  private readonly keptTimes: number[] = [];
  private readonly sessions: LastSessions<T> | null;

  constructor(private readonly window: ReadWindow<T>) {
    this.sessions = window.sessions === undefined ? null : new LastSessions<T>(window.sessions);
  }

  /** Counts skips and zone-less times, and keeps (or, with a bound on `sessions`, gathers by session) the items in the window. */
  firstPass(): StoreSink<T> {
    return {
      skip: (bad) => this.skips.add(bad),
      item: (item, file, line) => {
        const time = this.timeOf(item);
        if (time === null)
          return this.skips.add({
            file,
            line,
            reason: 'invalid_record',
            detail: 'its time is not an ISO 8601 date-time',
          });
        if (!time.hasZone) this.timestampsWithoutZone++;
        if (!this.inWindow(time.ms)) return;
        if (this.sessions === null) this.keep(item, time.ms);
        else this.sessions.add(this.window.sessionOf!(item), item, time.ms);
      },
    };
  }

  /** Keeps the items of the last `sessions` sessions held in memory; returns the sessions to read again. */
  chooseSessions(): Set<string> {
    return this.sessions === null ? new Set() : this.sessions.choose((item, ms) => this.keep(item, ms));
  }

  /** Keeps the window's items of `only`, counting nothing (the first pass did). */
  secondPass(only: Set<string>): StoreSink<T> {
    return {
      skip: () => undefined,
      item: (item) => {
        const time = this.timeOf(item);
        if (time !== null && this.inWindow(time.ms) && only.has(this.window.sessionOf!(item))) this.keep(item, time.ms);
      },
    };
  }

  /** The kept items, oldest first (ties in the order kept). */
  items(): T[] {
    const times = this.keptTimes;
    if (times.every((ms, i) => i === 0 || times[i - 1]! <= ms)) return this.keptItems;
    const order = this.keptItems.map((_, i) => i).sort((a, b) => times[a]! - times[b]! || a - b);
    return order.map((i) => this.keptItems[i]!);
  }

  /** The item's time; always 0 (with a zone) in a store without time, and null when it is not an ISO 8601 date-time. */
  private timeOf(item: T): ParsedTimestamp | null {
    return this.window.timeOf === undefined ? { ms: 0, hasZone: true } : parseIsoTimestamp(this.window.timeOf(item));
  }

  private inWindow(ms: number): boolean {
    return ms >= this.window.lower && ms <= this.window.upper;
  }

  private keep(item: T, ms: number): void {
    this.keptItems.push(item);
    this.keptTimes.push(ms);
  }
}
