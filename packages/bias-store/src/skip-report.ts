/** Why a line was skipped on read. */
export type SkipReason =
  | 'invalid_json'
  | 'invalid_record'
  | 'unsupported_version'
  | 'invalid_utf8'
  | 'line_too_long'
  | 'torn_line'
  | 'corrupt_segment';

/** Every skip reason, for iterating over `reasons`. */
export const skipReasons: readonly SkipReason[] = [
  'invalid_json',
  'invalid_record',
  'unsupported_version',
  'invalid_utf8',
  'line_too_long',
  'torn_line',
  'corrupt_segment',
];

/** A skipped line, as reported in `firstBadLines` (the detail never quotes the line's content). */
export interface BadLine {
  file: string;
  /** 1-based line number within the file. */
  line: number;
  reason: SkipReason;
  detail: string;
}

/** What reading skipped: the count, the count per reason, and the first few bad lines with where they are. */
export interface SkipReport {
  skipped: number;
  reasons: Record<SkipReason, number>;
  firstBadLines: BadLine[];
}

/**
 * The report of a read that skipped nothing: every reason at 0, in the order of `skipReasons`. A new object each call,
 * so a reader may count into it.
 */
export function noSkippedLines(): SkipReport {
  return {
    skipped: 0,
    reasons: {
      invalid_json: 0,
      invalid_record: 0,
      unsupported_version: 0,
      invalid_utf8: 0,
      line_too_long: 0,
      torn_line: 0,
      corrupt_segment: 0,
    },
    firstBadLines: [],
  };
}

/** Counts skipped lines as they come, keeping the first 20 with where they are. */
export class SkipCounter implements SkipReport {
  skipped = 0;
  reasons: Record<SkipReason, number> = noSkippedLines().reasons;
  firstBadLines: BadLine[] = [];

  add(entry: BadLine): void {
    this.skipped++;
    this.reasons[entry.reason]++;
    if (this.firstBadLines.length < 20)
      this.firstBadLines.push({ file: entry.file, line: entry.line, reason: entry.reason, detail: entry.detail });
  }

  report(): SkipReport {
    return { skipped: this.skipped, reasons: this.reasons, firstBadLines: this.firstBadLines };
  }
}
