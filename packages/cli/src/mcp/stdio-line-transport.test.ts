// The stdio transport of `council mcp`, on in-memory streams: lines framed across chunks, and what it cannot
// read answered with the JSON-RPC 2.0 errors (https://www.jsonrpc.org/specification §5.1) instead of closing.
import { PassThrough } from 'node:stream';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { idOfCutLine, StdioLineTransport } from './stdio-line-transport.js';

const CANARY = 'STDIO-QUERY-CANARY-41c9';

function setup(maxMessageBytes = 1024) {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const log: string[] = [];
  const messages: JSONRPCMessage[] = [];
  let closed = 0;
  const transport = new StdioLineTransport({ stdin, stdout, maxMessageBytes, log: (line) => void log.push(line) });
  transport.onmessage = (m) => void messages.push(m);
  transport.onclose = () => void (closed += 1);
  let written = '';
  stdout.setEncoding('utf8').on('data', (c: string) => (written += c));
  return {
    transport,
    log,
    messages,
    closed: () => closed,
    /** Writes the chunks one by one (each a separate 'data' event) and lets the output through. */
    async feed(...chunks: (string | Buffer)[]) {
      for (const chunk of chunks) stdin.write(chunk);
      await new Promise((resolve) => setImmediate(resolve));
    },
    /** What the transport wrote, one parsed object per line. */
    replies: () =>
      written
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => JSON.parse(l) as { jsonrpc: string; id: unknown; error?: { code: number; message: string } }),
  };
}

const ping = (id: number) => JSON.stringify({ jsonrpc: '2.0', id, method: 'ping' });

describe('StdioLineTransport', () => {
  it('frames one message per line across chunks, several in one chunk, with CRLF and blank lines', async () => {
    const t = setup();
    await t.transport.start();
    const [a, b, c] = [ping(1), ping(2), ping(3)];
    await t.feed(a.slice(0, 10), a.slice(10), `\n${b}\r\n\n  \n${c}`, '\n');
    expect(t.messages).toEqual([JSON.parse(a), JSON.parse(b), JSON.parse(c)]);
    expect(t.replies()).toEqual([]);
    expect(t.log).toEqual([]);
  });

  it('answers a message over the limit with -32600 and its id, keeps only the ends, and serves on', async () => {
    const t = setup(1024);
    await t.transport.start();
    // The SDK's clients write the id last: {"method", "params", "jsonrpc", "id"}.
    const big = JSON.stringify({
      method: 'tools/call',
      params: { name: 'consult_council', arguments: { query: `${CANARY} ${'x'.repeat(5000)}` } },
      jsonrpc: '2.0',
      id: 7,
    });
    const pieces = big.match(/[\s\S]{1,700}/g)!;
    await t.feed(...pieces);
    // Past the limit, before the line ends: a log line, no answer yet.
    expect(t.log).toEqual([
      'a message passed the 1024 bytes limit: discarding it to its end, then answering it with an error',
    ]);
    expect(t.replies()).toEqual([]);
    await t.feed(`\n${ping(8)}\n`);
    expect(t.replies()).toEqual([
      {
        jsonrpc: '2.0',
        id: 7,
        error: {
          code: -32600,
          message: `Message of ${big.length} bytes is over the limit of 1024 bytes (1024 bytes): send a smaller one.`,
        },
      },
    ]);
    expect(t.messages).toEqual([JSON.parse(ping(8))]);
    expect(t.log[1]).toBe(`refused a message of ${big.length} bytes, over the 1024 bytes limit (request id 7)`);
    expect(t.closed()).toBe(0);
    for (const line of t.log) expect(line).not.toContain(CANARY);
  });

  it('a line exactly at the limit is read; one byte more is refused (id null when neither end shows one)', async () => {
    const t = setup(64);
    await t.transport.start();
    const exact = JSON.stringify({ jsonrpc: '2.0', method: 'n', params: { p: '' } });
    const padded = exact.replace('"p":""', `"p":"${'y'.repeat(64 - exact.length)}"`);
    expect(Buffer.byteLength(padded)).toBe(64);
    await t.feed(`${padded}\n`);
    expect(t.messages).toHaveLength(1);
    const over = padded.replace('"p":"', '"p":"y');
    await t.feed(`${over}\n`);
    expect(t.messages).toHaveLength(1);
    expect(t.replies()).toEqual([
      { jsonrpc: '2.0', id: null, error: expect.objectContaining({ code: -32600 }) as unknown },
    ]);
  });

  it('answers a line that is not JSON with -32700 and id null, JSON that is no JSON-RPC message with -32600, and serves on', async () => {
    const t = setup();
    await t.transport.start();
    await t.feed(
      `{"jsonrpc": "2.0", "id": 4, "method": \n`,
      `${CANARY} not json\n`,
      '{"id": 5, "hello": 1}\n',
      '[1, 2]\n',
      'null\n',
      `${ping(6)}\n`,
    );
    expect(t.replies()).toEqual([
      {
        jsonrpc: '2.0',
        id: null,
        error: { code: -32700, message: 'Parse error: the line is not JSON. Send one JSON-RPC message per line.' },
      },
      {
        jsonrpc: '2.0',
        id: null,
        error: { code: -32700, message: 'Parse error: the line is not JSON. Send one JSON-RPC message per line.' },
      },
      {
        jsonrpc: '2.0',
        id: 5,
        error: {
          code: -32600,
          message: 'Invalid Request: the line is JSON but not a JSON-RPC 2.0 request, notification or response.',
        },
      },
      { jsonrpc: '2.0', id: null, error: expect.objectContaining({ code: -32600 }) as unknown },
      { jsonrpc: '2.0', id: null, error: expect.objectContaining({ code: -32600 }) as unknown },
    ]);
    expect(t.messages).toEqual([JSON.parse(ping(6))]);
    expect(t.log).toHaveLength(5);
    for (const line of t.log) expect(line).not.toContain(CANARY);
  });

  it('discards a line of 40 MiB against a 1 MiB limit chunk by chunk, and answers it', async () => {
    const t = setup(1024 * 1024);
    await t.transport.start();
    const chunk = Buffer.alloc(64 * 1024, 'z');
    await t.feed('{"jsonrpc":"2.0","id":"big","method":"tools/call","params":{"q":"');
    for (let i = 0; i < 640; i++) await t.feed(chunk);
    await t.feed('"}}\n');
    expect(t.replies()).toEqual([
      { jsonrpc: '2.0', id: 'big', error: expect.objectContaining({ code: -32600 }) as unknown },
    ]);
    expect(t.log[1]).toMatch(/^refused a message of 40\.0 MiB, over the 1\.0 MiB limit \(request id "big"\)$/);
  });
});

describe('idOfCutLine', () => {
  it('reads the top-level id from the first member or the last, never a nested one', () => {
    expect(idOfCutLine('{"id": 12, "method": "x", "params": {', '')).toBe(12);
    expect(idOfCutLine('{ "jsonrpc" : "2.0" , "id" : "a\\"b", "method"', '')).toBe('a"b');
    expect(idOfCutLine('{"method":"tools/call","params":{', '"}},"jsonrpc":"2.0","id":-3}')).toBe(-3);
    expect(idOfCutLine('{"method":"tools/call","params":{', '"x","id":9}}')).toBeNull();
    expect(idOfCutLine('{"method":"tools/call","params":{"id": 4,', 'zzz"}}')).toBeNull();
    expect(idOfCutLine('{"method":"notifications/x","params":{', '"}}')).toBeNull();
  });
});
