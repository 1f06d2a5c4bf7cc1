import { existsSync, statSync } from 'node:fs';
import type { BiasObservation } from '@council/bias-audit';
import { createBiasStore, toObservation } from '@council/bias-store';
import { CliError } from './cli-error.js';

export interface LoadedObservations {
  path: string;
  observations: BiasObservation[];
  records: number;
  /** Lines the store skipped (torn, invalid, another schema major), with the first few. */
  skipped: number;
  firstBadLines: { file: string; line: number; reason: string }[];
  /** Records whose `position` may be a ranking index (old files), kept but counted. */
  positionNotDisplayOrder: number;
  /** Records of a simulated provider (model ids `simulated:…`). */
  simulatedRecords: number;
}

/**
 * Streams the bias store at `path` into observations, one record at a time, so the file is never held
 * as text. Records older than `since` are dropped while reading. A missing file is an error only when
 * the caller named it.
 */
export async function loadObservations(options: { path: string; explicit: boolean; since?: number }): Promise<LoadedObservations> {
  const { path } = options;
  const result: LoadedObservations = { path, observations: [], records: 0, skipped: 0, firstBadLines: [], positionNotDisplayOrder: 0, simulatedRecords: 0 };
  if (!existsSync(path)) {
    if (options.explicit) throw new CliError({ code: 'RUNTIME', message: `No bias records at ${path}: the file does not exist. Check --input, or run sessions first (council demo writes some).` });
    return result;
  }
  if (statSync(path).isDirectory()) throw new CliError({ code: 'RUNTIME', message: `${path} is a directory, not a bias records file. Pass the .jsonl file with --input.` });
  const store = createBiasStore({ path });
  const since = options.since;
  for await (const entry of store.scan()) {
    if (entry.kind === 'skip') {
      result.skipped++;
      if (result.firstBadLines.length < 5) result.firstBadLines.push({ file: entry.file, line: entry.line, reason: entry.reason });
      continue;
    }
    const record = entry.item;
    result.records++;
    const observation = toObservation(record);
    if (since !== undefined && Date.parse(observation.timestamp) < since) continue;
    if (!record.positionIsDisplayOrder) result.positionNotDisplayOrder++;
    if (observation.reviewer.startsWith('simulated:') || observation.candidate.startsWith('simulated:')) result.simulatedRecords++;
    result.observations.push(observation);
  }
  return result;
}
