export { defineBenchSuite } from './bench-suite.js';
export type { BenchCase, BenchSuite, BenchValue } from './bench-suite.js';
export { formatTable } from './format-table.js';
export { median, runSuite } from './run-suite.js';
export type { BenchRow } from './run-suite.js';
