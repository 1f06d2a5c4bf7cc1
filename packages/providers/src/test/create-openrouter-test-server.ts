import { openAICompatibleFormat } from './openai-compatible-format.js';
import { startTestServer } from './start-test-server.js';
import type { TestServer, TestServerOptions } from './start-test-server.js';

/** An OpenRouter-format server: chat completions under `/api/v1`, `usage.cost`, `reasoning`, errors in 200 bodies. */
export function createOpenRouterTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  return startTestServer(openAICompatibleFormat({ openRouter: true }), options);
}
