import { describe, expect, it } from 'vitest';
import { UsageTap } from '../../src/usage/usage-tap.js';

/** Cuts `text` into chunks of `size` bytes, as a socket might deliver it. */
function chunks(text: string, size: number): Buffer[] {
  const all = Buffer.from(text);
  const out: Buffer[] = [];
  for (let i = 0; i < all.length; i += size) out.push(all.subarray(i, i + size));
  return out;
}

function read(parts: Buffer[]): ReturnType<UsageTap['usage']> {
  const tap = new UsageTap(true);
  for (const p of parts) tap.push(p);
  return tap.usage();
}

const anthropicStream = [
  'event: message_start\ndata: {"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"claude-sonnet-5","content":[],"stop_reason":null,"usage":{"input_tokens":2100,"cache_creation_input_tokens":400,"cache_read_input_tokens":96000,"output_tokens":1}}}\n\n',
  ...Array.from(
    { length: 200 },
    (_, i) =>
      `event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"word ${i} with \\"usage\\": {\\"input_tokens\\": 999} inside"}}\n\n`,
  ),
  'event: message_delta\ndata: {"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":812}}\n\n',
  'event: message_stop\ndata: {"type":"message_stop"}\n\n',
].join('');

describe('usage from a served body', () => {
  it.each([64, 1000, 16_384, 1 << 20])('Anthropic stream: message_start and message_delta, in %i-byte chunks', (size) => {
    expect(read(chunks(anthropicStream, size))).toEqual({
      input_tokens: 2100,
      output_tokens: 812,
      cache_read_tokens: 96000,
      cache_write_tokens: 400,
    });
  });

  it('OpenAI chat stream: the final chunk with usage', () => {
    const body = [
      ...Array.from(
        { length: 50 },
        (_, i) => `data: {"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"t${i}"}}],"usage":null}\n\n`,
      ),
      'data: {"id":"c","object":"chat.completion.chunk","choices":[],"usage":{"prompt_tokens":1234,"completion_tokens":56,"total_tokens":1290,"prompt_tokens_details":{"cached_tokens":1024}}}\n\n',
      'data: [DONE]\n\n',
    ].join('');
    expect(read(chunks(body, 300))).toEqual({ input_tokens: 1234, output_tokens: 56, cache_read_tokens: 1024, cache_write_tokens: null });
  });

  it('OpenAI Responses stream: response.completed', () => {
    const body = [
      'event: response.created\ndata: {"type":"response.created","response":{"id":"r","usage":null}}\n\n',
      'event: response.output_text.delta\ndata: {"type":"response.output_text.delta","delta":"hi"}\n\n'.repeat(40),
      'event: response.completed\ndata: {"type":"response.completed","response":{"id":"r","usage":{"input_tokens":38000,"input_tokens_details":{"cached_tokens":37000},"output_tokens":420,"output_tokens_details":{"reasoning_tokens":64},"total_tokens":38420}}}\n\n',
    ].join('');
    expect(read(chunks(body, 512))).toEqual({
      input_tokens: 38000,
      output_tokens: 420,
      cache_read_tokens: 37000,
      cache_write_tokens: null,
    });
  });

  it('whole answers of both families, usage near the end of a large body', () => {
    const long = 'x'.repeat(200_000);
    const openai = `{"id":"c","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"${long}"}}],"usage":{"prompt_tokens":9,"completion_tokens":7,"total_tokens":16}}`;
    expect(read(chunks(openai, 65_536))).toEqual({ input_tokens: 9, output_tokens: 7, cache_read_tokens: null, cache_write_tokens: null });
    const anthropic = `{"id":"m","type":"message","content":[{"type":"text","text":"${long}"}],"stop_reason":"end_turn","usage":{"input_tokens":3,"output_tokens":4,"cache_read_input_tokens":0,"cache_creation_input_tokens":0}}`;
    expect(read(chunks(anthropic, 65_536))).toEqual({ input_tokens: 3, output_tokens: 4, cache_read_tokens: 0, cache_write_tokens: 0 });
  });

  it('a usage member cut between two chunks is still read', () => {
    const body = '{"id":"c","choices":[],"usage":{"prompt_tokens":11,"completion_tokens":22}}';
    const cut = body.indexOf('completion');
    expect(read([Buffer.from(body.slice(0, cut)), Buffer.from(body.slice(cut))])).toMatchObject({ input_tokens: 11, output_tokens: 22 });
  });

  it('a usage member cut anywhere, in small chunks or between two big ones, is still read', () => {
    const member = '"usage":{"prompt_tokens":11,"completion_tokens":22}}';
    for (const pad of [10, 40_000]) {
      const body = `{"id":"c","text":"${'x'.repeat(pad)}","choices":[],${member}`;
      const from = body.length - member.length - 2;
      for (let cut = from; cut < body.length; cut++) {
        expect(read([Buffer.from(body.slice(0, cut)), Buffer.from(body.slice(cut))]), `pad ${pad}, cut at ${cut}`).toMatchObject({
          input_tokens: 11,
          output_tokens: 22,
        });
      }
    }
  });

  it('no usage reported, a compressed body, or usage only inside generated text: null', () => {
    expect(read([Buffer.from('{"id":"c","choices":[]}')])).toBeNull();
    const tap = new UsageTap(false);
    tap.push(Buffer.from('{"usage":{"prompt_tokens":1}}'));
    expect(tap.usage()).toBeNull();
    expect(read([Buffer.from('{"content":"say \\"usage\\": {\\"prompt_tokens\\": 5}"}')])).toBeNull();
    expect(read([])).toBeNull();
  });
});
