// The store's internals that @council/bias-engines builds its readers on (`@council/bias-store/internal`): the line
// parser, the file scanner, the window's checks and columns. Not part of the public API: it changes with the store,
// and only a bias-engines released with this store may import it.
export {
  allocateRecordArrays,
  allocateReportArrays,
  countColumnHolding,
  exactInFloat32,
  idWidth,
  permuteRecordArrays,
  recordBytes,
  scoreColumnHolding,
} from '../bias-columns-builder.js';
export type { RecordArrays, RecordWidths, ReportRecordArrays } from '../bias-columns-builder.js';
export { sessionsWithRepeats } from '../drop-repeated-records.js';
export type { OmittedRecordFields } from '../drop-repeated-records.js';
export { decodeBiasMetricRecordFast, foreignBiasRecordVersion } from '../bias-metric-record.js';
export { biasRecordVisitor } from '../bias-record-visitor.js';
export {
  biasColumn,
  biasField,
  biasLineKeys,
  biasLineParts,
  biasMetadataApi,
  biasMetadataKey,
  biasMetadataKeys,
  biasRecordCountProblem,
  biasRecordFields,
  isNullableColumn,
} from '../bias-record-fields.js';
export type {
  BiasFieldApi,
  BiasFieldKind,
  BiasFieldPresence,
  BiasLinePart,
  BiasParquetType,
  BiasRecordField,
} from '../bias-record-fields.js';
export { blankLine, LineProblem, lineDecoder, tornLine } from '../decode-jsonl-line.js';
export { checkWindowOptions } from '../engine-window-options.js';
export type { CheckedWindow } from '../engine-window-options.js';
export { ioError } from '../io-error.js';
export { isBlankLine, skipByteOrderMark } from '../jsonl-line-start.js';
export { locateRecordLines, reportOutOfRangeRanks, withInvalidRecords } from '../locate-record-lines.js';
export { majorOf } from '../major-version.js';
export { BiasLineFields, parseBiasLineFast } from '../parse-bias-line.js';
export { resolveBiasInputs } from '../resolve-bias-inputs.js';
export type { BiasInputFile } from '../resolve-bias-inputs.js';
export { scanJsonlChunks, scanJsonlLines } from '../scan-jsonl-lines.js';
export type { JsonlLine, JsonlLinePlace } from '../scan-jsonl-lines.js';
export { dropOutOfRangeRanks } from '../drop-out-of-range-ranks.js';
export type { OutOfRangeRank, OutOfRangeRanks } from '../drop-out-of-range-ranks.js';
export { settleWindowRecords } from '../settle-window-records.js';
export type { SettledWindowRecords } from '../settle-window-records.js';
export { noSkippedLines, SkipCounter } from '../skip-report.js';
export { noWindowExclusions } from '../window-exclusions.js';
export { byCodeUnits, checkWindowNames, windowNameLimits } from '../window-names.js';
