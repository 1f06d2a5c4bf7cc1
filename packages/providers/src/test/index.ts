export { createAnthropicTestServer } from './create-anthropic-test-server.js';
export { createGeminiTestServer } from './create-gemini-test-server.js';
export { createOpenAICompatibleTestServer } from './create-openai-compatible-test-server.js';
export { createOpenRouterTestServer } from './create-openrouter-test-server.js';
export { createScriptedModel } from './create-scripted-model.js';
export type { ScriptedModel, ScriptedModelOptions, ScriptedStep } from './create-scripted-model.js';
export { createFakeClock } from './create-fake-clock.js';
export type { FakeClock } from './create-fake-clock.js';
export type { TestServer, TestServerOptions } from './start-test-server.js';
export type {
  RecordedRequest,
  TestErrorResponse,
  TestHangResponse,
  TestHugeResponse,
  TestRawResponse,
  TestResetResponse,
  TestResponse,
  TestTextResponse,
  TestTruncatedResponse,
  TestUsage,
} from './test-response.js';
