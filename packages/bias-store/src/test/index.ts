// Test helpers for packages that test against Council's files (`@council/bias-store/test`): not part of the API.
// Fault injection for the durability tests of the packages that write Council's files (Linux: /proc/self/fd).
export { injectWriteFaults } from '../__fixtures__/write-faults.js';
export type { InjectedWriteFaults, WriteFault } from '../__fixtures__/write-faults.js';
// Seeded synthetic sessions (observations of a few models), for tests and benchmarks that need many records.
export { syntheticModels, syntheticObservations } from '../__fixtures__/synthetic-sessions.js';
// The lines of a small store that an export must keep as they are (three UTC days, old and new shapes, two bad lines).
export { exportLine, exportStoreLines } from '../__fixtures__/export-store-lines.js';
