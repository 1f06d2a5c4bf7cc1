// Test helpers for packages that test against Council's engines (`@council/bias-store/test`): not part of the API.
export { clickhouseServerPath, startClickhouseTestServer } from '../__fixtures__/clickhouse-test-server.js';
export type { ClickhouseTestServer } from '../__fixtures__/clickhouse-test-server.js';
// Fault injection for the durability tests of the packages that write Council's files (Linux: /proc/self/fd).
export { injectWriteFaults } from '../__fixtures__/write-faults.js';
export type { InjectedWriteFaults, WriteFault } from '../__fixtures__/write-faults.js';
