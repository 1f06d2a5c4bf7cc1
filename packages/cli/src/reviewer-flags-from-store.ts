import { existsSync } from 'node:fs';
import type { CommandContext } from './command-context.js';
import type { CouncilSettings } from './settings/council-settings.js';

/** Reviewer flags as a jury names them beside votes: `HARSH_REVIEWER` → "harsh reviewer". */
function flagWords(code: string): string {
  return code.toLowerCase().replace(/_/g, ' ');
}

/**
 * What the bias store knows about each reviewer, for a jury (issue 32): the cross-session report's flags about a
 * reviewer (harsh, generous, self-preference, drift, affinity with an author), keyed by reviewer id, when the
 * store's window meets the report's minimum of sessions; nothing below it, or without a store. The report is
 * `council bias-report`'s own (its window and settings), with 0 permutations, as its figures need no p-values here.
 * Never throws: a store that cannot be read gives no flags and a note.
 */
export async function reviewerFlagsFromStore(
  ctx: CommandContext,
  settings: Pick<CouncilSettings, 'files'>,
): Promise<{ flags: Record<string, string[]>; note: string | null }> {
  if (!existsSync(settings.files.biasStore)) return { flags: {}, note: null };
  try {
    const { computeBiasReport } = await import('./commands/bias-report-command.js');
    const { document } = await computeBiasReport({ resamples: 0 }, ctx);
    const report = document.report;
    if (!report.meetsMinimum) return { flags: {}, note: null };
    const flags: Record<string, string[]> = {};
    for (const flag of report.flags) {
      if (flag.subject === null) continue;
      const reviewer = flag.subject.split('→')[0]!;
      const words =
        flag.code === 'REVIEWER_AFFINITY' ? `affinity for ${flag.subject.split('→')[1] ?? '?'}` : flagWords(flag.code);
      const list = (flags[reviewer] ??= []);
      if (!list.includes(words)) list.push(words);
    }
    return { flags, note: null };
  } catch (error) {
    return {
      flags: {},
      note: `the bias store could not be read for the jury's reviewer flags (${error instanceof Error ? error.message : String(error)}); none are shown.`,
    };
  }
}
