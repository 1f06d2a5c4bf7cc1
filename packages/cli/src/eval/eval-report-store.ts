import { createHash } from 'node:crypto';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { EvalReport } from './compute-eval-report.js';

/** An eval run's id: its journal's absolute path hashed, so a run resumed (same journal) keeps its id and its report. */
export const evalRunId = (journalPath: string): string =>
  createHash('sha256').update(journalPath).digest('hex').slice(0, 12);

const ID = /^[0-9a-f]{12}$/;

/** Where the home keeps eval reports: one `<id>.json` per run, the document of `council eval --json`. */
export const evalReportsDir = (home: string): string => join(home, 'evals');

/**
 * Saves a run's report in the home (`evals/<id>.json`, replacing the run's earlier report: a resumed run reports
 * every item), written whole to a temporary file then renamed, so a reader never sees half a report. The dashboard
 * reads it as it is: nothing is recomputed from the journal to serve it.
 */
export function saveEvalReport(options: { home: string; report: EvalReport }): { id: string; path: string } {
  const id = evalRunId(options.report.journal);
  const dir = evalReportsDir(options.home);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const path = join(dir, `${id}.json`);
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(options.report)}\n`, { mode: 0o600 });
  renameSync(temporary, path);
  return { id, path };
}

/** One saved eval run, as `GET /api/evals` lists it. */
export interface EvalRunSummary {
  id: string;
  generatedAt: string;
  /** The journal's file name (not its directory). */
  journal: string;
  demo: boolean;
  items: EvalReport['items'];
  members: string[];
  totalCostUsd: number | null;
}

/** Reads a saved report by id; null when there is none (or the id is not one). */
export async function readEvalReport(options: { home: string; id: string }): Promise<EvalReport | null> {
  if (!ID.test(options.id)) return null;
  try {
    const report = JSON.parse(
      await readFile(join(evalReportsDir(options.home), `${options.id}.json`), 'utf8'),
    ) as EvalReport;
    return report.kind === 'council-eval' ? report : null;
  } catch {
    return null;
  }
}

/** The home's saved eval runs, newest first; a file that is not a report is skipped. */
export async function listEvalReports(home: string): Promise<EvalRunSummary[]> {
  let names: string[];
  try {
    names = await readdir(evalReportsDir(home));
  } catch {
    return [];
  }
  const runs: EvalRunSummary[] = [];
  for (const name of names) {
    const id = name.replace(/\.json$/, '');
    if (!name.endsWith('.json') || !ID.test(id)) continue;
    const report = await readEvalReport({ home, id });
    if (report === null) continue;
    runs.push({
      id,
      generatedAt: report.generatedAt,
      journal: basename(report.journal),
      demo: report.demo,
      items: report.items,
      members: report.members.map((m) => m.member),
      totalCostUsd: report.cost?.totalUsd ?? null,
    });
  }
  return runs.sort((a, b) => b.generatedAt.localeCompare(a.generatedAt));
}
