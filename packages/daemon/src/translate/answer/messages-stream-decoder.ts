import type { RawMessageStreamEvent } from '@anthropic-ai/sdk/resources/messages';
import type { SseEvent } from '../sse/sse-parser.js';
import type { AnswerSink, StopReason, TokenUsage } from './answer.js';
import { fromMessagesStop } from './stop-reasons.js';
import type { StreamDecoder } from './stream-decoder.js';
import { upstreamErrorMessage } from './upstream-error-message.js';

type WireEvent = RawMessageStreamEvent | { type: 'ping' } | { type: 'error'; error?: unknown };

/**
 * A Messages API stream. Its blocks already come one after another, so text
 * and tool calls pass straight through; thinking blocks are dropped. The
 * usage is `message_start`'s, updated by `message_delta`'s counts. Complete
 * at `message_stop`; an end before it is a cut.
 */
export class MessagesStreamDecoder implements StreamDecoder {
  private readonly usage: TokenUsage = { input: 0, cacheRead: 0, cacheWrite: 0, output: 0 };
  private sawUsage = false;
  private stop: StopReason = 'stop';
  /** the index of the block being read when it carries something (text or a tool call), else -1 */
  private carried = -1;
  private done = false;

  event(event: SseEvent, sink: AnswerSink): void {
    if (this.done) return;
    let e: WireEvent;
    try {
      e = JSON.parse(event.data);
    } catch {
      return this.fail(sink, 'bad_answer', 'the upstream sent an event that is not JSON');
    }
    switch (e.type) {
      case 'message_start':
        sink.start(e.message.id, e.message.model);
        if (e.message.usage) this.addUsage(e.message.usage);
        return;
      case 'content_block_start': {
        const block = e.content_block;
        this.carried = -1;
        if (block.type === 'text') {
          this.carried = e.index;
          if (block.text) sink.text(block.text);
        } else if (block.type === 'tool_use') {
          this.carried = e.index;
          sink.toolStart(block.id, block.name);
          const input = block.input;
          if (input !== null && typeof input === 'object' && Object.keys(input).length > 0) sink.toolArgs(JSON.stringify(input));
        } else if (block.type !== 'thinking' && block.type !== 'redacted_thinking') {
          this.fail(sink, 'bad_answer', `the upstream answered with a ${block.type} block`);
        }
        return;
      }
      case 'content_block_delta':
        if (e.index !== this.carried) return;
        if (e.delta.type === 'text_delta') sink.text(e.delta.text);
        else if (e.delta.type === 'input_json_delta' && e.delta.partial_json !== '') sink.toolArgs(e.delta.partial_json);
        return;
      case 'message_delta':
        this.stop = fromMessagesStop(e.delta.stop_reason);
        if (e.usage) this.addUsage(e.usage);
        return;
      case 'message_stop':
        this.done = true;
        sink.finish(this.stop, this.sawUsage ? this.usage : null);
        return;
      case 'error':
        return this.fail(sink, 'upstream_error', upstreamErrorMessage(e.error));
      default:
        // content_block_stop, ping, and event types added after this was written
        return;
    }
  }

  end(): boolean {
    return this.done;
  }

  /** Counts present overwrite: `message_delta` carries whole-message totals, not increments. */
  private addUsage(usage: {
    input_tokens?: number | null;
    cache_read_input_tokens?: number | null;
    cache_creation_input_tokens?: number | null;
    output_tokens?: number | null;
  }): void {
    this.sawUsage = true;
    if (typeof usage.input_tokens === 'number') this.usage.input = usage.input_tokens;
    if (typeof usage.cache_read_input_tokens === 'number') this.usage.cacheRead = usage.cache_read_input_tokens;
    if (typeof usage.cache_creation_input_tokens === 'number') this.usage.cacheWrite = usage.cache_creation_input_tokens;
    if (typeof usage.output_tokens === 'number') this.usage.output = usage.output_tokens;
  }

  private fail(sink: AnswerSink, kind: 'upstream_error' | 'bad_answer', message: string): void {
    this.done = true;
    sink.fail(kind, message);
  }
}
