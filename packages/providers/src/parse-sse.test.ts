import { describe, expect, it } from 'vitest';
import { parseSse } from './parse-sse.js';

async function collect(chunks: string[]): Promise<Array<{ event: string | undefined; data: string }>> {
  const encoder = new TextEncoder();
  const body = (async function* () {
    await Promise.resolve();
    for (const c of chunks) yield encoder.encode(c);
  })();
  const out = [];
  for await (const e of parseSse(body)) out.push(e);
  return out;
}

describe('parseSse', () => {
  it('reads data events, ignores comment lines and unknown fields', async () => {
    const events = await collect([
      ': OPENROUTER PROCESSING\n\n',
      'id: 1\ndata: {"a":1}\n\n',
      'retry: 10\n',
      'data: [DONE]\n\n',
    ]);
    expect(events).toEqual([
      { event: undefined, data: '{"a":1}' },
      { event: undefined, data: '[DONE]' },
    ]);
  });

  it('joins multi-line data, keeps event names, and handles CRLF split across chunks', async () => {
    const events = await collect([
      'event: message_start\r',
      '\ndata: line one\r\ndata:line two\r\n',
      '\r\n',
      'event: ping\ndata: {}\n\n',
    ]);
    expect(events).toEqual([
      { event: 'message_start', data: 'line one\nline two' },
      { event: 'ping', data: '{}' },
    ]);
  });

  it('handles a multi-byte character split between chunks', async () => {
    const bytes = new TextEncoder().encode('data: héllo — ok\n\n');
    const body = (async function* () {
      await Promise.resolve();
      yield bytes.slice(0, 8);
      yield bytes.slice(8);
    })();
    const out = [];
    for await (const e of parseSse(body)) out.push(e.data);
    expect(out).toEqual(['héllo — ok']);
  });

  it('drops an event the stream cut off before its blank line', async () => {
    expect(await collect(['data: {"complete":true}\n\n', 'data: {"cut'])).toEqual([
      { event: undefined, data: '{"complete":true}' },
    ]);
  });
});
