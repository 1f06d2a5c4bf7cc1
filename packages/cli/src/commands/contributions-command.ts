import { evidenceTier } from '../bias-findings.js';
import { aggregateContributions, BiasAuditError } from '@council/bias-audit';
import type { ContributionsReport, MeanWeight } from '@council/bias-audit';
import {
  BiasStoreError,
  councilPaths,
  parseIsoTimestamp,
  readContributionRecords,
  unsavedSessionIds,
} from '@council/bias-store';
import type { ReadContributionRecordsResult } from '@council/bias-store';
import type { CommandContext } from '../command-context.js';
import { commandSettings } from '../command-context.js';
import { CliError } from '../cli-error.js';
import { renderTable } from '../render-table.js';

export interface ContributionsCommandOptions {
  /** Only the last n sessions (after `since`). */
  last?: number;
  /** Only sessions at or after this ISO 8601 time. */
  since?: string;
  json?: boolean;
}

/**
 * What `council contributions --json` prints and `GET /api/contributions` serves: `aggregateContributions`'s
 * report (sessions, members with `meanWeight` and `wins`, the heatmap) and what reading the store met.
 */
export interface ContributionsDocument extends ContributionsReport {
  store: {
    /** The contribution store read (`<home>/contributions.jsonl`). */
    path: string;
    /** Records in the window, one per session and member. */
    records: number;
    /** Repeats of a (session, member) already read: identical copies, and differing ones (the first was kept). */
    duplicates: number;
    conflicts: number;
    skipped: ReadContributionRecordsResult['skipped'];
    reasons: ReadContributionRecordsResult['reasons'];
    firstBadLines: ReadContributionRecordsResult['firstBadLines'];
    warnings: string[];
  };
}

function usage(message: string, cause?: unknown): CliError {
  return new CliError({ code: 'USAGE', message, ...(cause === undefined ? {} : { cause }) });
}

/** Checks the window and gives `since` as a full ISO time: a date alone is its midnight UTC, a time without a zone is UTC (as the store reads one). */
function checkWindow(options: Pick<ContributionsCommandOptions, 'last' | 'since'>): {
  sessions?: number;
  since?: string;
} {
  const { last, since } = options;
  if (last !== undefined && (typeof last !== 'number' || !Number.isInteger(last) || last < 1))
    throw usage(
      `--last expects a whole number of sessions, 1 or more, got ${JSON.stringify(last)}. Example: --last 50.`,
    );
  if (since === undefined) return last === undefined ? {} : { sessions: last };
  const text = typeof since === 'string' ? since.trim() : '';
  // The store's own parser: Date.parse would roll 2026-02-30 over to 2 March and take hour 24.
  const parsed = parseIsoTimestamp(/^\d{4}-\d{2}-\d{2}$/.test(text) ? `${text}T00:00:00Z` : text);
  if (parsed === null)
    throw usage(
      `--since expects an ISO 8601 date or time such as 2026-11-01 or 2026-11-01T00:00:00Z, got ${JSON.stringify(String(since).slice(0, 40))}.`,
    );
  return { ...(last === undefined ? {} : { sessions: last }), since: new Date(parsed.ms).toISOString() };
}

/**
 * Reads the contribution store of the settings' home and aggregates it: the influence share of each member with
 * its interval, beside its vote wins, and the member × strategy heatmap, over the window (`last` sessions,
 * `since` a time; default every session). Throws `CliError` `USAGE` for a bad window.
 */
export async function computeContributionsReport(
  options: Pick<ContributionsCommandOptions, 'last' | 'since'>,
  ctx: CommandContext,
): Promise<ContributionsDocument> {
  const window = checkWindow(options);
  const settings = commandSettings(ctx);
  const path = settings.files.contributions;
  try {
    // Sessions not saved whole yet (the home's journal names them) are left out, as every reader leaves them out.
    const leaveOutSessions = await unsavedSessionIds(councilPaths(settings.home).journal);
    const read = await readContributionRecords({ path, ...window, leaveOutSessions });
    const report = aggregateContributions(read.records, { window });
    const { duplicates, conflicts } = read.repeated;
    return {
      ...report,
      store: {
        path,
        records: read.records.length,
        duplicates,
        conflicts,
        skipped: read.skipped,
        reasons: read.reasons,
        firstBadLines: read.firstBadLines,
        warnings: read.warnings,
      },
    };
  } catch (error) {
    if ((BiasStoreError.isInstance(error) || BiasAuditError.isInstance(error)) && error.code === 'INVALID_OPTION')
      throw usage(error.message, error);
    if (BiasStoreError.isInstance(error) || BiasAuditError.isInstance(error))
      throw new CliError({ code: 'RUNTIME', message: `${path}: ${error.message}`, cause: error });
    throw error;
  }
}

const share = (x: number | null): string => (x === null ? '—' : x.toFixed(3));

function interval(m: MeanWeight | { lower: number | null; upper: number | null }): string {
  return m.lower === null || m.upper === null ? '—' : `[${m.lower.toFixed(3)}, ${m.upper.toFixed(3)}]`;
}

/** The lines about what reading met (skipped lines, repeats), for stderr. */
function describeRead(document: ContributionsDocument): string[] {
  const { store } = document;
  const lines: string[] = [];
  if (store.skipped > 0) {
    lines.push(
      `${store.skipped} line${store.skipped === 1 ? '' : 's'} of ${store.path} could not be read and were skipped:`,
    );
    for (const bad of store.firstBadLines) lines.push(`  ${bad.file}:${bad.line}: ${bad.reason}: ${bad.detail}`);
  }
  if (store.duplicates > 0)
    lines.push(`${store.duplicates} repeated record${store.duplicates === 1 ? '' : 's'} counted once.`);
  lines.push(...store.warnings);
  return lines.map((line) => `${line}\n`);
}

/** `council contributions`: which members the chairmen credit (influence share with its interval), beside who wins the vote. */
export async function runContributionsCommand(
  options: ContributionsCommandOptions,
  ctx: CommandContext,
): Promise<number> {
  const document = await computeContributionsReport(options, ctx);
  for (const line of describeRead(document)) ctx.io.stderr(line);
  if (options.json === true) {
    ctx.io.stdout(`${JSON.stringify(document, null, 2)}\n`);
    return 0;
  }
  const s = ctx.out;
  if (document.sessions === 0) {
    if (options.since !== undefined) {
      ctx.io.stdout(
        `No session in ${document.store.path} since ${document.window.since}: try an earlier --since, or none.\n`,
      );
    } else {
      const { biasRecordsState } = await import('../settings/bias-records-opt-in.js');
      // Contribution records are written with the bias records, under the same opt-in.
      ctx.io.stdout(
        `No contribution records in ${document.store.path} yet: they are saved with the bias records after each session with a synthesis. ${await biasRecordsState(commandSettings(ctx))}\n`,
      );
    }
    return 0;
  }
  const { window } = document;
  ctx.io.stdout(
    `${s.bold('Contributions to the synthesis')} · ${document.sessions} session${document.sessions === 1 ? '' : 's'} (${document.sessionsWithBlock} with a contributors block) · ${window.first?.slice(0, 10)} to ${window.last?.slice(0, 10)}\n`,
  );
  ctx.io.stdout(
    renderTable({
      head: ['member', 'influence', '95% interval', 'evidence', 'sessions', 'credited', 'vote wins'],
      align: ['left', 'right', 'right', 'left', 'right', 'right', 'right'],
      style: s,
      rows: document.members.map((m) => [
        m.member,
        share(m.meanWeight.estimate),
        interval(m.meanWeight),
        evidenceTier(m.meanWeight.tier),
        String(m.sessions),
        String(m.credited),
        `${m.wins} of ${m.satIn}`,
      ]),
    }),
  );
  ctx.io.stdout(
    s.dim(
      'influence: the mean weight the chairman gave the member per session (0 when not credited), over the sessions it sat in with a contributors block; vote wins: sessions it led the stage-2 Borda ranking alone.\n',
    ),
  );
  const { heatmap } = document;
  if (heatmap.strategies.length > 1) {
    const cell = new Map(heatmap.cells.map((c) => [`${c.member}\u0000${c.strategy}`, c.meanWeight]));
    ctx.io.stdout(`${s.bold('Influence by strategy')} (mean weight, sessions)\n`);
    ctx.io.stdout(
      renderTable({
        head: ['member', ...heatmap.strategies],
        align: ['left', ...heatmap.strategies.map(() => 'right' as const)],
        style: s,
        rows: document.members.map((m) => [
          m.member,
          ...heatmap.strategies.map((st) => {
            const c = cell.get(`${m.member}\u0000${st}`);
            return c === undefined ? '—' : `${share(c.estimate)} (${c.n})`;
          }),
        ]),
      }),
    );
  }
  return 0;
}
