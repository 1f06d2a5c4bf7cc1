import { anthropicFormat } from './anthropic-format.js';
import { startTestServer } from './start-test-server.js';
import type { TestServer, TestServerOptions } from './start-test-server.js';

/** An Anthropic Messages server under `/v1`: JSON, named SSE events, `{ type: 'error', error }` bodies, 529. */
export function createAnthropicTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  return startTestServer(anthropicFormat(), options);
}
