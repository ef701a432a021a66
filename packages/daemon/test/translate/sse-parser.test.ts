/** The SSE reader under the stream translators: events from bytes cut anywhere. */
import { describe, expect, it } from 'vitest';
import { type SseEvent, SseParser } from '../../src/translate/sse/sse-parser.js';
import { SPLITS } from './helpers/feed.js';

function parse(chunks: readonly Buffer[]): SseEvent[] {
  const events: SseEvent[] = [];
  const parser = new SseParser((event) => events.push(event));
  for (const chunk of chunks) parser.push(chunk);
  return events;
}

/** The same events whichever way the bytes are cut. */
function parseEverySplit(text: string): SseEvent[] {
  const bytes = Buffer.from(text);
  const whole = parse([bytes]);
  for (const { name, split } of SPLITS) expect(parse(split(bytes)), name).toEqual(whole);
  return whole;
}

describe('SSE parser', () => {
  it('reads named and unnamed events, skipping comments, ids and retry', () => {
    expect(parseEverySplit(': keep-alive\n\nevent: message_start\ndata: {"a":1}\n\nid: 7\nretry: 100\ndata: {"b":2}\n\n')).toEqual([
      { event: 'message_start', data: '{"a":1}' },
      { event: null, data: '{"b":2}' },
    ]);
  });

  it('joins several data lines with a newline; a value may omit the space after the colon', () => {
    expect(parseEverySplit('data:{"x":\ndata: 1}\n\n')).toEqual([{ event: null, data: '{"x":\n1}' }]);
  });

  it('takes LF, CRLF and lone CR line ends, even with CR and LF in different chunks', () => {
    const events = parseEverySplit('data: a\r\n\r\ndata: b\r\rdata: c\n\n');
    expect(events).toEqual([
      { event: null, data: 'a' },
      { event: null, data: 'b' },
      { event: null, data: 'c' },
    ]);
    expect(parse([Buffer.from('data: a\r'), Buffer.from('\n'), Buffer.from('\r'), Buffer.from('\ndata: b\r\n\r\n')])).toEqual([
      { event: null, data: 'a' },
      { event: null, data: 'b' },
    ]);
  });

  it('keeps multi-byte characters whole when a chunk ends inside one', () => {
    const bytes = Buffer.from('data: {"t":"é中👋"}\n\n');
    const chunks = [...bytes].map((b) => Buffer.from([b]));
    expect(parse(chunks)).toEqual([{ event: null, data: '{"t":"é中👋"}' }]);
  });

  it('does not dispatch an event the stream ends in the middle of, nor one without data', () => {
    expect(parse([Buffer.from('event: ping\n\ndata: {"cut":')])).toEqual([]);
    expect(parse([Buffer.from('data: whole line\n')])).toEqual([]);
  });

  it('reads a line that arrives over many chunks once', () => {
    const long = 'x'.repeat(100_000);
    const bytes = Buffer.from(`data: ${long}\n\n`);
    const chunks: Buffer[] = [];
    for (let i = 0; i < bytes.length; i += 1000) chunks.push(bytes.subarray(i, i + 1000));
    expect(parse(chunks)).toEqual([{ event: null, data: long }]);
  });
});
