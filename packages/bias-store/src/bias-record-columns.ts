import type { CompleteBiasColumns } from '@council/bias-audit';

/**
 * The bias records of a window as columns, as `readBiasRecords` returns them: `@council/bias-audit`'s
 * `BiasColumns` with every per-record column (the statistics read it as it is). A record costs 41 bytes at most instead
 * of an object; an engine's report read (`columns: 'report'`) leaves out the four columns the statistics do not read.
 */
export type BiasRecordColumns = CompleteBiasColumns;

/** The `rankPosition` of a record that was not ranked (the same value as `@council/bias-audit`'s `noRank`). */
export const noRank = 0xffff_ffff;
