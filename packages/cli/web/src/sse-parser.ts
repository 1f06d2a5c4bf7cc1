/** One server-sent event. */
export interface SseEvent {
  id: string | null;
  event: string;
  data: string;
}

/**
 * The event-stream format of the HTML standard (§9.2.6), fed in arbitrary pieces: lines end with CR, LF
 * or CRLF; `field: value` (one leading space dropped); `data` lines join with LF; a blank line dispatches;
 * lines starting with `:` are comments. An event without data is not dispatched. `lastEventId` is the last
 * `id` field seen, which a reconnect sends as Last-Event-ID.
 */
export class SseParser {
  lastEventId: string | null = null;
  private buffer = '';
  private pendingCr = false;
  private event = '';
  private data: string[] = [];

  /** Parses a piece of the stream; returns the events it completed. */
  push(chunk: string): SseEvent[] {
    const events: SseEvent[] = [];
    let text = chunk;
    // A CR at the end of the previous piece already ended its line; a LF right after it belongs to it.
    if (this.pendingCr && text.startsWith('\n')) text = text.slice(1);
    this.pendingCr = false;
    this.buffer += text;
    let start = 0;
    for (let i = 0; i < this.buffer.length; i++) {
      const c = this.buffer[i];
      if (c !== '\n' && c !== '\r') continue;
      const line = this.buffer.slice(start, i);
      if (c === '\r') {
        if (i + 1 === this.buffer.length) this.pendingCr = true;
        else if (this.buffer[i + 1] === '\n') i++;
      }
      start = i + 1;
      const event = this.line(line);
      if (event) events.push(event);
    }
    this.buffer = this.buffer.slice(start);
    return events;
  }

  private line(line: string): SseEvent | null {
    if (line === '') return this.dispatch();
    if (line.startsWith(':')) return null;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') this.event = value;
    else if (field === 'data') this.data.push(value);
    else if (field === 'id' && !value.includes('\0')) this.lastEventId = value;
    return null;
  }

  private dispatch(): SseEvent | null {
    const data = this.data;
    const event = this.event;
    this.data = [];
    this.event = '';
    if (data.length === 0) return null;
    return { id: this.lastEventId, event: event || 'message', data: data.join('\n') };
  }
}
