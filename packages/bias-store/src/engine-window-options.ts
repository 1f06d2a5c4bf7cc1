import { movedWindowOptionProblem, safeParseBiasWindow } from '@council/bias-audit';
import type { BiasWindow, BiasWindowOptions } from '@council/bias-audit';
import { BiasStoreError } from './bias-store-error.js';

/**
 * The window every reader of bias records takes (`readBiasRecords`, and each engine of `bias-report --engine
 * duckdb|clickhouse`): bias-audit's `BiasWindowOptions`, or a `BiasWindow` it checked. A reader returns the window's
 * records as columns and its counts; an engine returns what `readBiasRecords` returns for the same records.
 */
export interface EngineWindowOptions {
  /** Default: every record up to the current time (no bound on sessions or days, no filter). */
  window?: BiasWindowOptions;
}

/** A reader's window, checked: bias-audit's `BiasWindow`. */
export type CheckedWindow = BiasWindow;

/**
 * The window as every reader of records takes it (the embedded reader and each engine): checked by bias-audit's
 * `safeParseBiasWindow`, or `INVALID_OPTION` naming `reader` and the option. A reader reads no query category (records
 * carry it only for the statistics), so one given is refused.
 */
export function checkWindowOptions(options: EngineWindowOptions, reader: string): CheckedWindow {
  const moved = movedWindowOptionProblem(options);
  if (moved !== undefined) throw new BiasStoreError({ code: 'INVALID_OPTION', message: `${reader}: ${moved}` });
  const parsed = safeParseBiasWindow(options.window ?? {}, { caller: reader });
  if (!parsed.success)
    throw new BiasStoreError({ code: 'INVALID_OPTION', message: parsed.error.message, cause: parsed.error });
  if (parsed.value.queryCategory !== undefined)
    throw new BiasStoreError({
      code: 'INVALID_OPTION',
      message: `${reader}: the window's queryCategory is not a filter of the readers; filter by model or configVersion, or aggregate the observations with aggregateBiasAudit.`,
    });
  return parsed.value;
}
