// Test helpers for packages that test against Council's engines (`@council/bias-engines/test`): not part of the API.
export { clickhouseServerPath, startClickhouseTestServer } from '../__fixtures__/clickhouse-test-server.js';
export type { ClickhouseTestServer } from '../__fixtures__/clickhouse-test-server.js';
