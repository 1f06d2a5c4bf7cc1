import { describe, expect, it } from 'vitest';
import { SseParser } from './sse-parser.js';

describe('SseParser', () => {
  it('parses the example streams of the HTML standard (§9.2.6)', () => {
    const parser = new SseParser();
    // "data: YHOO\ndata: +2\ndata: 10\n\n" is one event whose data is the three lines joined by LF.
    expect(parser.push('data: YHOO\ndata: +2\ndata: 10\n\n')).toEqual([
      { id: null, event: 'message', data: 'YHOO\n+2\n10' },
    ]);
    // A comment, then an id that stays for later events, and `data` without a space keeps everything after the colon.
    expect(
      parser.push(': test stream\n\ndata: first event\nid: 1\n\ndata:second event\nid\n\ndata:  third event\n\n'),
    ).toEqual([
      { id: '1', event: 'message', data: 'first event' },
      { id: '', event: 'message', data: 'second event' },
      { id: '', event: 'message', data: ' third event' },
    ]);
  });

  it('dispatches nothing for a block without data, and names events by their `event` field', () => {
    const parser = new SseParser();
    expect(parser.push('event: ping\n\nid: 7\nevent: answer\ndata: {"a":1}\n\n')).toEqual([
      { id: '7', event: 'answer', data: '{"a":1}' },
    ]);
    expect(parser.lastEventId).toBe('7');
  });

  it('gives the same events however the stream is cut, with LF, CR or CRLF line ends', () => {
    const stream =
      'id: 1\r\nevent: synthesis-text\r\ndata: {"text":"Hel"}\r\n\r\nid: 2\revent: synthesis-text\rdata: {"text":"lo"}\r\rid: 3\nevent: done\ndata: {}\n\n';
    const expected = [
      { id: '1', event: 'synthesis-text', data: '{"text":"Hel"}' },
      { id: '2', event: 'synthesis-text', data: '{"text":"lo"}' },
      { id: '3', event: 'done', data: '{}' },
    ];
    for (let size = 1; size <= stream.length; size++) {
      const parser = new SseParser();
      const events = [];
      for (let i = 0; i < stream.length; i += size) events.push(...parser.push(stream.slice(i, i + size)));
      expect(events, `pieces of ${size}`).toEqual(expected);
      expect(parser.lastEventId).toBe('3');
    }
  });

  it('keeps an unfinished event until its blank line arrives', () => {
    const parser = new SseParser();
    expect(parser.push('id: 4\nevent: answer\ndata: {}\n')).toEqual([]);
    expect(parser.push('\n')).toEqual([{ id: '4', event: 'answer', data: '{}' }]);
  });
});
