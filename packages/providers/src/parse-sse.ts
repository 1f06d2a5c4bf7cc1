/** One server-sent event: its `event:` name (when given) and its `data:` lines joined by newlines. */
export interface ServerSentEvent {
  event: string | undefined;
  data: string;
}

/**
 * Reads server-sent events from a byte stream (WHATWG HTML §9.2.6): comment lines (starting with
 * `:`, which OpenRouter sends as keep-alives) and fields other than `event` and `data` are ignored;
 * an event the stream cuts off before its closing blank line is dropped.
 */
export async function* parseSse(body: AsyncIterable<Uint8Array>): AsyncGenerator<ServerSentEvent> {
  const decoder = new TextDecoder();
  let buffer = '';
  let event: string | undefined;
  let data: string[] = [];
  const take = function* (line: string): Generator<ServerSentEvent> {
    if (line === '') {
      if (data.length > 0) yield { event, data: data.join('\n') };
      event = undefined;
      data = [];
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') data.push(value);
    else if (field === 'event') event = value;
  };
  for await (const chunk of body) {
    buffer += decoder.decode(chunk, { stream: true });
    let match: RegExpExecArray | null;
    const lineEnd = /\r\n|\r|\n/g;
    let consumed = 0;
    while ((match = lineEnd.exec(buffer)) !== null) {
      // A lone \r at the end of the buffer may be the first half of \r\n: wait for more.
      if (match[0] === '\r' && match.index === buffer.length - 1) break;
      yield* take(buffer.slice(consumed, match.index));
      consumed = match.index + match[0].length;
    }
    buffer = buffer.slice(consumed);
  }
  // An event not closed by a blank line before the stream ends is discarded, as the spec says:
  // the stream was cut, and half an event is not an event.
}
