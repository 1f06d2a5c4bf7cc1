import { openAICompatibleFormat } from './openai-compatible-format.js';
import { startTestServer } from './start-test-server.js';
import type { TestServer, TestServerOptions } from './start-test-server.js';

/** An OpenAI chat-completions server under `/v1` (OpenAI, Ollama, vLLM, LM Studio all speak it). */
export function createOpenAICompatibleTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  return startTestServer(openAICompatibleFormat({ openRouter: false }), options);
}
