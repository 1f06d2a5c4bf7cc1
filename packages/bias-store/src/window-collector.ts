import { orderSessionsByStart } from '@council/bias-audit';
import type { BiasWindow } from '@council/bias-audit';
import type { BiasColumnsBuilder, BiasRow } from './bias-columns-builder.js';
import { IdInterner } from './id-interner.js';
import { BiasLineFields } from './parse-bias-line.js';
import type { ReadBiasRecordsResult } from './read-bias-records.js';
import { SessionWindow } from './session-window.js';
import type { BiasWindowExclusions } from './window-exclusions.js';
import { noWindowExclusions } from './window-exclusions.js';
import type { SettledWindowRecords } from './settle-window-records.js';
import { settleWindowRecords } from './settle-window-records.js';
import type { BadLine, SkipReason } from './skip-report.js';
import { noSkippedLines } from './skip-report.js';

/** What the reader counts while it reads: everything of its result but what the window's records give at the end. */
export type ReadCounts = Omit<
  ReadBiasRecordsResult,
  'columns' | 'repeated' | 'sessions' | 'positionNotDisplayOrder' | 'simulatedRecords' | 'warnings'
>;

/**
 * The window of `readBiasRecords` as the read goes: the interned names, the counts, and the records kept. A line
 * visitor fills `fields` and the ids of `row`, then calls `accept`, which applies the window to that record (the
 * unsaved sessions, the model and config-version filters, `now`, the days, and — by pruning to the last sessions
 * whenever it holds far more — the window's `sessions`), so memory grows with the window, not with the files.
 * After the read, `chooseSessions` keeps the last sessions and names those to read again; `finish` gives the columns.
 */
export class WindowCollector {
  readonly sessionIds = new IdInterner(0xffff_ffff, 'sessions');
  readonly models = new IdInterner(0xffff, 'model ids');
  readonly configVersions = new IdInterner(0xfffe, 'config versions');
  readonly categories = new IdInterner(0xfffe, 'query categories');
  /** The record being read: its values (the fast parser's fields, or set from a parsed record or a Parquet row). */
  readonly fields = new BiasLineFields();
  /** The record being read: its interned ids; the values are copied in by `accept`. */
  readonly row: BiasRow = {
    session: 0,
    reviewer: 0,
    candidate: 0,
    position: 0,
    responseLengthChars: 0,
    score: 0,
    rankPosition: 0,
    time: 0,
    configVersion: 0,
    queryCategory: 0,
    positionIsDisplayOrder: false,
  };
  readonly result: ReadCounts = {
    files: [],
    lines: 0,
    records: 0,
    excluded: noWindowExclusions(),
    foreignMajors: [],
    timestampsWithoutZone: 0,
    ...noSkippedLines(),
  };
  /** The file being read, named in skipped lines. */
  currentFile = '';
  /** False in the second pass, which only collects the records of sessions dropped too early (nothing is counted). */
  firstPass = true;

  private readonly sessions = new SessionWindow();
  /** Set for the second pass: only these sessions' records are collected. */
  private only: Set<number> | null = null;
  /** Interned up front, so a record's session is checked by its index (no string per record). */
  private readonly leaveOut: Set<number> | null;
  /** Holding more sessions than this triggers a prune back to the window's `sessions`. */
  private readonly holdLimit: number;
  private readonly sessionLimit: number;
  private readonly nowMs: number;
  private readonly earliest: number;
  private readonly modelFilter: string | undefined;
  private readonly configFilter: string | undefined;
  /** The sessions kept, oldest first (set by `chooseSessions`), and each session's place among them (-1: none). */
  private chosen: number[] = [];
  private place = new Int32Array(0);
  private ranked = 0;

  constructor(
    window: BiasWindow,
    private readonly builder: BiasColumnsBuilder,
    leaveOutSessions: ReadonlySet<string> | undefined,
  ) {
    this.sessionLimit = window.sessions;
    this.nowMs = window.nowMs;
    this.earliest = window.earliestMs;
    this.modelFilter = window.model;
    this.configFilter = window.configVersion;
    this.holdLimit =
      window.sessions === Number.POSITIVE_INFINITY ? Number.POSITIVE_INFINITY : Math.max(4 * window.sessions, 4096);
    this.leaveOut =
      leaveOutSessions === undefined ? null : new Set([...leaveOutSessions].map((id) => this.sessionIds.of(id)));
  }

  /** Counts a skipped line (the first 20 are kept with their file, line and detail). */
  skip(line: number, reason: SkipReason, detail: string): void {
    const { result } = this;
    result.skipped++;
    result.reasons[reason]++;
    if (result.firstBadLines.length < 20)
      result.firstBadLines.push({ file: this.currentFile, line, reason, detail } satisfies BadLine);
  }

  /** Takes one valid record (`fields` filled, ids interned into `row`); applies the window. */
  accept(): void {
    const { row, fields, result, sessions } = this;
    if (this.firstPass) {
      result.records++;
      if (!fields.hasZone) result.timestampsWithoutZone++;
    }
    if (this.only !== null && !this.only.has(row.session)) return;
    let excludedBy: keyof BiasWindowExclusions | null = null;
    if (this.leaveOut !== null && this.leaveOut.has(row.session)) excludedBy = 'unsaved';
    else if (
      this.modelFilter !== undefined &&
      this.models.names[row.reviewer] !== this.modelFilter &&
      this.models.names[row.candidate] !== this.modelFilter
    )
      excludedBy = 'model';
    else if (
      this.configFilter !== undefined &&
      (row.configVersion === 0 ? null : this.configVersions.names[row.configVersion - 1]) !== this.configFilter
    )
      excludedBy = 'configVersion';
    else if (fields.time > this.nowMs) excludedBy = 'future';
    else if (fields.time < this.earliest) excludedBy = 'beforeWindow';
    if (excludedBy !== null) {
      if (this.firstPass) result.excluded[excludedBy]++;
      return;
    }
    const id = row.session;
    sessions.ensure(id);
    if (sessions.state[id] === 0) {
      sessions.state[id] = 1;
      sessions.key[id] = fields.time;
      sessions.held++;
    } else if (fields.time < sessions.key[id]!) {
      sessions.key[id] = fields.time;
    }
    if (this.firstPass) sessions.records[id]!++;
    if (sessions.state[id] === 2 && this.firstPass) return;
    row.position = fields.position;
    row.responseLengthChars = fields.responseLengthChars;
    row.score = fields.score;
    row.rankPosition = fields.rankPosition;
    row.time = fields.time;
    row.positionIsDisplayOrder = fields.positionIsDisplayOrder;
    this.builder.add(row);
    if (sessions.held > this.holdLimit) this.prune();
  }

  /** Drops the records of every session held beyond the last `sessionLimit` so far (they may come back: see `chooseSessions`). */
  private prune(): void {
    const { sessions, sessionIds, sessionLimit } = this;
    const order: number[] = [];
    for (let i = 0; i < sessionIds.names.length; i++) if (sessions.state[i] === 1) order.push(i);
    order.sort((a, b) => sessions.key[b]! - sessions.key[a]! || (sessionIds.names[a]! < sessionIds.names[b]! ? 1 : -1));
    for (const i of order.slice(sessionLimit)) sessions.state[i] = 2;
    sessions.held = Math.min(order.length, sessionLimit);
    this.builder.retain((s) => sessions.state[s] === 1);
  }

  /**
   * After the first pass: keeps the last `sessionLimit` sessions by their earliest record, ties by id (counting the
   * records of the others as beyond the window), and returns the kept sessions dropped by a prune, whose records a
   * second pass (`readAgain`) collects.
   */
  chooseSessions(): number[] {
    const { sessions, sessionIds, sessionLimit, result } = this;
    const ranked: number[] = [];
    for (let i = 0; i < sessionIds.names.length; i++)
      if (i < sessions.state.length && sessions.state[i] !== 0) ranked.push(i);
    orderSessionsByStart(ranked, sessions.key, sessionIds.names);
    const chosen = sessionLimit < ranked.length ? ranked.slice(ranked.length - sessionLimit) : ranked;
    for (let r = 0; r < ranked.length - chosen.length; r++)
      result.excluded.beyondSessions += sessions.records[ranked[r]!]!;
    const missing = chosen.filter((s) => sessions.state[s] === 2);
    const place = new Int32Array(sessionIds.names.length).fill(-1);
    chosen.forEach((s, i) => (place[s] = i));
    this.builder.retain((s) => place[s]! >= 0);
    this.chosen = chosen;
    this.place = place;
    this.ranked = ranked.length;
    return missing;
  }

  /** Before the second pass: from now on only `missing`'s records are collected, and nothing is counted. */
  readAgain(missing: readonly number[]): void {
    this.firstPass = false;
    this.only = new Set(missing);
  }

  /** The window's records as columns, repeats dropped (`settleWindowRecords`), and the sessions before the last N. */
  finish(): SettledWindowRecords & { sessions: number } {
    const { chosen, sessions, sessionIds } = this;
    const settled = settleWindowRecords(
      this.builder.finish({
        place: this.place,
        sessionIds: chosen.map((s) => sessionIds.names[s]!),
        sessionTime: Float64Array.from(chosen, (s) => sessions.key[s]!),
        models: this.models.names,
        configVersions: this.configVersions.names,
        queryCategories: this.categories.names,
      }),
      this.result.timestampsWithoutZone,
    );
    return { ...settled, sessions: this.ranked };
  }
}
