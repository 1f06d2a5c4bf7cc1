import type { Readable, Writable } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { McpLog } from './tool-context.js';

/** Largest message read from stdin (one line), as the SDK's own stdio transport allows. */
export const MAX_STDIO_MESSAGE_BYTES = 10 * 1024 * 1024;
/** How much of each end of an oversized line is kept, to find its request id. */
const KEPT_END_BYTES = 4096;

type RequestId = string | number;

/**
 * The id of a JSON-RPC request cut from a line too long to parse, read from what was kept of its two ends: the
 * top-level `"id"` is either the line's first member (`{"id": 5, …` or `{"jsonrpc": "2.0", "id": 5, …`) or its
 * last (`…, "id": 5}`, as the SDK's clients write it). A nested `"id"` at the end is followed by at least two
 * closing braces, so it is not taken. Null when neither end shows one.
 */
export function idOfCutLine(head: string, tail: string): RequestId | null {
  const value = String.raw`(-?\d+|"(?:[^"\\]|\\.)*")`;
  const first = new RegExp(String.raw`^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*${value}\s*,`).exec(head);
  const last = new RegExp(String.raw`,\s*"id"\s*:\s*${value}\s*\}\s*$`).exec(tail);
  const found = first?.[1] ?? last?.[1];
  return found === undefined ? null : (JSON.parse(found) as RequestId);
}

function bytes(n: number): string {
  return n >= 1024 * 1024 ? `${(n / (1024 * 1024)).toFixed(1)} MiB` : `${n} bytes`;
}

/**
 * The MCP stdio transport, one JSON-RPC message per line, that answers what it cannot read instead of closing.
 * The SDK's `StdioServerTransport` buffers a line whole and, past 10 MiB, closes itself (the process then has
 * nothing left to wait for and exits 13, with no answer and no log line); a line that is not JSON reaches only
 * `onerror`. Here:
 * - a line over `maxMessageBytes` is discarded as it arrives (a few KiB of its ends are kept, no more) and, once
 *   it ends, answered with an Invalid Request error (-32600) carrying the request's id when one of its ends shows
 *   it (else null), and one log line;
 * - a line that is not JSON is answered with a Parse error (-32700, id null), one that is JSON but no JSON-RPC
 *   message with Invalid Request (-32600, its id if it has one); each with a log line (never the line's content:
 *   it may hold a question);
 * - blank lines are skipped; a `\r` before the newline is dropped. Serving goes on in every case.
 */
export class StdioLineTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private readonly stdin: Readable;
  private readonly stdout: Writable;
  private readonly maxMessageBytes: number;
  private readonly log: McpLog;
  private parts: Buffer[] = [];
  private size = 0;
  /** The line being discarded: its length so far, its first bytes and its last. */
  private cut: { size: number; head: Buffer; tail: Buffer } | null = null;
  private started = false;

  constructor(options: { log: McpLog; stdin?: Readable; stdout?: Writable; maxMessageBytes?: number }) {
    this.stdin = options.stdin ?? process.stdin;
    this.stdout = options.stdout ?? process.stdout;
    this.maxMessageBytes = options.maxMessageBytes ?? MAX_STDIO_MESSAGE_BYTES;
    this.log = options.log;
  }

  private readonly onData = (chunk: Buffer): void => {
    let start = 0;
    while (start < chunk.length) {
      const newline = chunk.indexOf(0x0a, start);
      this.take(chunk.subarray(start, newline === -1 ? chunk.length : newline));
      if (newline === -1) break;
      this.endLine();
      start = newline + 1;
    }
  };

  private readonly onError = (error: Error): void => {
    this.onerror?.(error);
  };

  start(): Promise<void> {
    if (this.started) throw new Error('StdioLineTransport already started.');
    this.started = true;
    this.stdin.on('data', this.onData);
    this.stdin.on('error', this.onError);
    return Promise.resolve();
  }

  /** Adds a piece of the current line, or counts it and keeps its end when the line is over the limit. */
  private take(piece: Buffer): void {
    if (piece.length === 0) return;
    if (this.cut !== null) {
      this.cut.size += piece.length;
      this.cut.tail = Buffer.concat([this.cut.tail, piece]).subarray(-KEPT_END_BYTES);
      return;
    }
    if (this.size + piece.length <= this.maxMessageBytes) {
      this.parts.push(piece);
      this.size += piece.length;
      return;
    }
    const sofar = Buffer.concat([...this.parts, piece]);
    this.cut = {
      size: sofar.length,
      head: Buffer.from(sofar.subarray(0, KEPT_END_BYTES)),
      tail: Buffer.from(sofar.subarray(-KEPT_END_BYTES)),
    };
    this.parts = [];
    this.size = 0;
    this.log(
      `a message passed the ${bytes(this.maxMessageBytes)} limit: discarding it to its end, then answering it with an error`,
    );
  }

  private endLine(): void {
    const cut = this.cut;
    if (cut !== null) {
      this.cut = null;
      const id = idOfCutLine(cut.head.toString('utf8'), cut.tail.toString('utf8').replace(/\r$/, ''));
      this.log(
        `refused a message of ${bytes(cut.size)}, over the ${bytes(this.maxMessageBytes)} limit${id === null ? '' : ` (request id ${JSON.stringify(id)})`}`,
      );
      const message = `Message of ${cut.size} bytes is over the limit of ${this.maxMessageBytes} bytes (${bytes(this.maxMessageBytes)}): send a smaller one.`;
      this.reply({ id, code: ErrorCode.InvalidRequest, message });
      return;
    }
    const line = Buffer.concat(this.parts).toString('utf8').replace(/\r$/, '');
    this.parts = [];
    this.size = 0;
    if (line.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      this.log('a line on stdin is not JSON: answered with a parse error (-32700)');
      this.reply({
        id: null,
        code: ErrorCode.ParseError,
        message: 'Parse error: the line is not JSON. Send one JSON-RPC message per line.',
      });
      return;
    }
    const parsed = JSONRPCMessageSchema.safeParse(value);
    if (!parsed.success) {
      const given = (value as { id?: unknown } | null)?.id;
      const id = typeof given === 'string' || typeof given === 'number' ? given : null;
      this.log(
        `a line on stdin is JSON but no JSON-RPC message: answered with an invalid request error (-32600)${id === null ? '' : ` (request id ${JSON.stringify(id)})`}`,
      );
      this.reply({
        id,
        code: ErrorCode.InvalidRequest,
        message: 'Invalid Request: the line is JSON but not a JSON-RPC 2.0 request, notification or response.',
      });
      return;
    }
    this.onmessage?.(parsed.data);
  }

  /** A JSON-RPC error the transport answers on its own (id null when the request's id could not be read). */
  private reply(error: { id: RequestId | null; code: number; message: string }): void {
    this.write(
      `${JSON.stringify({ jsonrpc: '2.0', id: error.id, error: { code: error.code, message: error.message } })}\n`,
    ).catch((e: unknown) => this.onerror?.(e instanceof Error ? e : new Error(String(e))));
  }

  private write(text: string): Promise<void> {
    return new Promise((resolve) => {
      if (this.stdout.write(text)) resolve();
      else this.stdout.once('drain', resolve);
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    return this.write(`${JSON.stringify(message)}\n`);
  }

  close(): Promise<void> {
    this.stdin.off('data', this.onData);
    this.stdin.off('error', this.onError);
    if (this.stdin.listenerCount('data') === 0) this.stdin.pause();
    this.parts = [];
    this.size = 0;
    this.cut = null;
    this.onclose?.();
    return Promise.resolve();
  }
}
