import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAnthropic } from './anthropic-provider.js';
import { createOpenRouter } from './openrouter-provider.js';
import { ResponseTooLargeError } from './response-too-large-error.js';
import { createAnthropicTestServer } from './test/create-anthropic-test-server.js';
import { createOpenRouterTestServer } from './test/create-openrouter-test-server.js';
import type { TestServer } from './test/start-test-server.js';

const MiB = 1024 * 1024;
const messages = [{ role: 'user' as const, content: 'Hi' }];
let openrouter: TestServer;
let anthropic: TestServer;

beforeAll(async () => {
  openrouter = await createOpenRouterTestServer();
  anthropic = await createAnthropicTestServer();
});
afterAll(async () => {
  await openrouter.close();
  await anthropic.close();
});

async function failure(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to fail');
}

describe('maxResponseBytes (issue 15 item 9)', () => {
  it('a 50 MB JSON reply past a 1 MiB limit fails as reply too large, once (not retried), without the rest being read', async () => {
    const provider = createOpenRouter({ baseURL: openrouter.url, apiKey: 'k', maxResponseBytes: MiB });
    openrouter.reset();
    const sentBefore = openrouter.hugeBytesSent;
    openrouter.enqueue({ kind: 'huge', bytes: 50 * MiB });
    const error = await failure(provider('a/b').doGenerate({ messages }));
    expect(ResponseTooLargeError.isInstance(error)).toBe(true);
    expect((error as ResponseTooLargeError).code).toBe('RESPONSE_TOO_LARGE');
    expect((error as Error).message).toMatch(/^reply too large: openrouter sent more than 1 MiB for a\/b/);
    expect(openrouter.requests).toHaveLength(1);
    // The client stopped reading at 1 MiB: what the server got through is the limit plus socket buffers, far from 50 MB.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(openrouter.hugeBytesSent - sentBefore).toBeLessThan(20 * MiB);
  });

  it('a streamed reply is cut at the limit too', async () => {
    const provider = createOpenRouter({ baseURL: openrouter.url, apiKey: 'k', maxResponseBytes: MiB });
    openrouter.enqueue({ kind: 'huge', bytes: 50 * MiB });
    let text = 0;
    const error = await failure(
      (async () => {
        for await (const part of provider('a/b').doStream!({ messages }))
          if (part.type === 'text-delta') text += part.text.length;
      })(),
    );
    expect(ResponseTooLargeError.isInstance(error)).toBe(true);
    // 64 KiB text events, each under 70 KiB on the wire: at most 15 fit in 1 MiB.
    expect(text).toBeLessThanOrEqual(15 * 64 * 1024);
  });

  it('a reply within the limit is read whole, by every vendor format', async () => {
    openrouter.enqueue({ kind: 'huge', bytes: 256 * 1024 });
    const viaOpenRouter = await createOpenRouter({ baseURL: openrouter.url, apiKey: 'k', maxResponseBytes: MiB })(
      'a/b',
    ).doGenerate({ messages });
    expect(viaOpenRouter.text).toBe('x'.repeat(256 * 1024));
    anthropic.enqueue({ kind: 'huge', bytes: 2 * MiB });
    const error = await failure(
      createAnthropic({ baseURL: anthropic.url, apiKey: 'k', maxResponseBytes: MiB })('claude-x').doGenerate({
        messages,
      }),
    );
    expect(ResponseTooLargeError.isInstance(error)).toBe(true);
  });

  it('refuses a limit that is not a whole number of bytes', () => {
    expect(() => createOpenRouter({ apiKey: 'k', maxResponseBytes: 0 })).toThrow(
      /maxResponseBytes must be a whole number of bytes ≥ 1/,
    );
  });
});
