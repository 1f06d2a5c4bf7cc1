import { geminiFormat } from './gemini-format.js';
import { startTestServer } from './start-test-server.js';
import type { TestServer, TestServerOptions } from './start-test-server.js';

/** A Gemini server under `/v1beta`: `generateContent`, `streamGenerateContent?alt=sse`, `usageMetadata`. */
export function createGeminiTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  return startTestServer(geminiFormat(), options);
}
