import type { JsonlCursor } from './jsonl-cursor.js';
import type { SkipReason } from './skip-report.js';

/** One line read from a store: an item, or a skipped line with its reason. `next` is the cursor just past it. */
export type JsonlEntry<T> =
  | { kind: 'item'; item: T; file: string; line: number; offset: number; next: JsonlCursor }
  | { kind: 'skip'; reason: SkipReason; detail: string; file: string; line: number; offset: number; next: JsonlCursor };
