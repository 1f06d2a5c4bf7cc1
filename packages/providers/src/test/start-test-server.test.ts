import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAnthropicTestServer } from './create-anthropic-test-server.js';
import { createGeminiTestServer } from './create-gemini-test-server.js';
import { createOpenAICompatibleTestServer } from './create-openai-compatible-test-server.js';
import type { TestServer } from './start-test-server.js';

let openai: TestServer;
beforeAll(async () => {
  openai = await createOpenAICompatibleTestServer({
    apiKey: 'k',
    respond: (r) => ({ kind: 'text', text: `you asked ${r.model ?? '?'}` }),
  });
});
afterAll(() => openai.close());

const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });

describe('test servers', () => {
  it('listen on 127.0.0.1, record requests and answer in the vendor format', async () => {
    expect(openai.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    const response = await post(
      `${openai.url}/chat/completions`,
      { model: 'm', messages: [] },
      { authorization: 'Bearer k' },
    );
    const json = (await response.json()) as {
      choices: Array<{ message: { content: string } }>;
      usage: { prompt_tokens: number };
    };
    expect(json.choices[0]?.message.content).toBe('you asked m');
    expect(openai.requests.at(-1)).toMatchObject({
      method: 'POST',
      path: '/v1/chat/completions',
      model: 'm',
      stream: false,
      body: { model: 'm', messages: [] },
    });
  });

  it('refuse a wrong key in the vendor’s error shape, and 404 unknown paths', async () => {
    const denied = await post(`${openai.url}/chat/completions`, { model: 'm' }, { authorization: 'Bearer nope' });
    expect(denied.status).toBe(401);
    expect(((await denied.json()) as { error: { message: string } }).error.message).toContain('nope');
    expect((await post(`${openai.url}/embeddings`, {})).status).toBe(404);
  });

  it('track concurrency', async () => {
    openai.enqueue({ kind: 'text', text: 'a', delayMs: 30 }, { kind: 'text', text: 'b', delayMs: 30 });
    await Promise.all(
      [1, 2].map(() =>
        post(`${openai.url}/chat/completions`, { model: 'm' }, { authorization: 'Bearer k' }).then((r) => r.text()),
      ),
    );
    expect(openai.maxInFlight).toBeGreaterThanOrEqual(2);
    expect(openai.inFlight).toBe(0);
    openai.enqueue({ kind: 'text', text: 'left over' });
    openai.reset();
    expect(openai.requests).toEqual([]);
    expect(openai.maxInFlight).toBe(0);
    const fresh = (await (
      await post(`${openai.url}/chat/completions`, { model: 'm' }, { authorization: 'Bearer k' })
    ).json()) as { choices: Array<{ message: { content: string } }> };
    expect(fresh.choices[0]?.message.content).toBe('you asked m');
  });

  it('route Anthropic and Gemini paths', async () => {
    const anthropic = await createAnthropicTestServer();
    const gemini = await createGeminiTestServer();
    try {
      const a = (await (
        await post(`${anthropic.url}/messages`, { model: 'claude', max_tokens: 5, messages: [] })
      ).json()) as { type: string; content: Array<{ text: string }> };
      expect(a).toMatchObject({ type: 'message', content: [{ type: 'text', text: 'ok' }] });
      const g = (await (
        await post(`${gemini.url}/models/gemini-2.5-flash:generateContent`, { contents: [] })
      ).json()) as { candidates: unknown[] };
      expect(g.candidates).toHaveLength(1);
      expect(gemini.requests[0]?.model).toBe('gemini-2.5-flash');
      const s = await (
        await post(`${gemini.url}/models/gemini-2.5-flash:streamGenerateContent?alt=sse`, { contents: [] })
      ).text();
      expect(s.startsWith('data: {')).toBe(true);
    } finally {
      await anthropic.close();
      await gemini.close();
    }
  });
});
