import type { TelemetryOutboxPaths } from '@council/bias-store';
import type { TelemetryEvent } from '@council/core';
import type { IngestClient } from './ingest-client.js';
import { maxEventsPerBatch } from './ingest-contract.js';

export interface UploadOutboxOptions {
  paths: TelemetryOutboxPaths;
  /** Where batches go; unused (may be null) with `dryRun`. */
  client: IngestClient | null;
  /** Print the batches instead of sending them: no request, no cursor move, no dead-letter write. */
  dryRun?: boolean;
  /** Receives each batch body a dry run would send. */
  onDryRunBatch?: (body: { events: TelemetryEvent[] }) => void;
  /** Events per request, 1 to 100; default 100. */
  batchSize?: number;
  /** Stop after this many events were handed to council-cloud. */
  maxEvents?: number;
  /** The user's current consent level, when known: events queued at a higher level are sent reduced to it. */
  consentCeiling?: number;
  /** Attempts per batch before giving up for this run; default 5. */
  maxAttempts?: number;
  /** The longest single wait this run accepts; a longer `Retry-After` ends the run with its time as the next retry. Default 60 s. */
  maxWaitMs?: number;
  /** Backoff base and cap, in ms (defaults 500 and 30 000). */
  backoff?: { baseMs?: number; maxMs?: number };
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
  random?: () => number;
  /** Called after each commit (the lock's heartbeat). */
  onCommit?: () => Promise<void> | void;
  /** One line of progress per retry, for the terminal. Never holds event content. */
  onNotice?: (text: string) => void;
}

/** `UploadOutboxOptions` with every default filled in. */
export interface UploadSettings extends UploadOutboxOptions {
  dryRun: boolean;
  batchSize: number;
  maxEvents: number;
  maxAttempts: number;
  maxWaitMs: number;
  sleep: (ms: number) => Promise<void>;
  now: () => number;
  random: () => number;
  onNotice: (text: string) => void;
}

/** Checks the options and fills in the defaults; a wrong batch size or a missing client is a programming error, thrown. */
export function resolveUploadSettings(options: UploadOutboxOptions): UploadSettings {
  const dryRun = options.dryRun ?? false;
  const batchSize = options.batchSize ?? maxEventsPerBatch;
  if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > maxEventsPerBatch) {
    throw new RangeError(`batchSize must be an integer from 1 to ${maxEventsPerBatch}.`);
  }
  if (!dryRun && options.client === null) throw new TypeError('uploadOutbox needs a client unless dryRun is set.');
  return {
    ...options,
    dryRun,
    batchSize,
    maxEvents: options.maxEvents ?? Infinity,
    maxAttempts: options.maxAttempts ?? 5,
    maxWaitMs: options.maxWaitMs ?? 60_000,
    sleep: options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))),
    now: options.now ?? Date.now,
    random: options.random ?? Math.random,
    onNotice: options.onNotice ?? (() => undefined),
  };
}
