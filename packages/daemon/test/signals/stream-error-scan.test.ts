import type { Family } from '@routeplane/shared';
import { describe, expect, it } from 'vitest';
import { StreamErrorScan, scannable } from '../../src/signals/stream-error-scan.js';
import { anthropicStream, buf, openaiStream } from './fixtures.js';

/** An error event later in a served stream, found chunk by chunk. */

/** Feeds the pieces in order; true when any of them showed an error marker. */
function scan(family: Family, pieces: readonly string[]): boolean {
  const s = new StreamErrorScan(family);
  let saw = false;
  for (const piece of pieces) if (s.saw(buf(piece))) saw = true;
  return saw;
}

/** The stream cut in two at every byte, and in three around every 1-byte middle piece: what each cut reads as. */
function everyCut(text: string): string[][] {
  const cuts: string[][] = [[text]];
  for (let i = 1; i < text.length; i++) cuts.push([text.slice(0, i), text.slice(i)]);
  for (let i = 1; i + 1 < text.length; i++) cuts.push([text.slice(0, i), text.slice(i, i + 1), text.slice(i + 1)]);
  return cuts;
}

const anthropicStart = anthropicStream.messageStart;

describe('an error event later in the stream is seen, wherever the chunks are cut', () => {
  it.each([
    [
      'anthropic',
      'Anthropic event: error (overloaded_error)',
      anthropicStart + anthropicStream.textDelta('Hi') + anthropicStream.overloadedEvent,
    ],
    ['anthropic', 'the same with CRLF line ends', (anthropicStart + anthropicStream.overloadedEvent).replaceAll('\n', '\r\n')],
    ['anthropic', 'event:error without the space', `${anthropicStart}event:error\ndata: {}\n\n`],
    ['openai', 'OpenRouter data: {"error":{…}} beside choices', openaiStream.chatDelta('Hi') + openaiStream.openrouterMidStream],
    [
      'openai',
      'a bare data: {"error": {…}} with a space',
      `${openaiStream.chatDelta('Hi')}data: {"error": {"code": 502, "message": "x"}}\n\n`,
    ],
    ['openai', 'Responses event: error', openaiStream.responsesCreated + openaiStream.responsesDelta('Hi') + openaiStream.responsesError],
    [
      'openai',
      'Responses response.failed',
      openaiStream.responsesCreated + openaiStream.responsesDelta('Hi') + openaiStream.responsesFailed,
    ],
  ] as const)('%s: %s', (family, _what, stream) => {
    expect(everyCut(stream).filter((pieces) => !scan(family, pieces))).toEqual([]);
  });

  it('an error event that is the very first line counts too (the stream start is a line start)', () => {
    expect(scan('anthropic', [anthropicStream.overloadedEvent])).toBe(true);
    expect(scan('openai', [openaiStream.responsesError])).toBe(true);
  });
});

describe('what is not an error event', () => {
  // model text reaches a stream JSON-escaped: no raw line feed, no bare quote
  const talk = 'To debug:\nevent: error\ndata: {"error":{"code":502}}\nand "error": {} or "error":null';

  it.each([
    ['anthropic', 'a text delta that talks about error events', anthropicStart + anthropicStream.textDelta(talk)],
    ['openai', 'a chat delta that talks about error events', openaiStream.chatDelta(talk)],
    ['openai', 'a Responses delta that talks about them', openaiStream.responsesCreated + openaiStream.responsesDelta(talk)],
    ['openai', 'a Responses stream: its events carry "error":null', openaiStream.responsesCreated + openaiStream.responsesCompleted],
    [
      'openai',
      'a tool call whose arguments (a JSON string) hold an error object',
      `data: ${JSON.stringify({ choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: '{"error":{"code":1}}' } }] } }] })}\n\n`,
    ],
    ['anthropic', 'an event whose name only starts with error', `${anthropicStart}event: errors\ndata: {}\n\n`],
    ['anthropic', 'the Anthropic family reads event names, not data', `${anthropicStart}data: {"error":{"code":502}}\n\n`],
  ] as const)('%s: %s', (family, _what, stream) => {
    expect(everyCut(stream).filter((pieces) => scan(family, pieces))).toEqual([]);
  });
});

describe('which answers are scanned', () => {
  it.each([
    ['text/event-stream', undefined, true],
    ['text/event-stream; charset=utf-8', 'identity', true],
    ['Text/Event-Stream', '', true],
    ['text/event-stream', 'gzip', false],
    ['application/json', undefined, false],
    [undefined, undefined, false],
  ])('content-type %s, content-encoding %s: %s', (type, encoding, expected) => {
    expect(scannable(type, encoding)).toBe(expected);
  });
});
