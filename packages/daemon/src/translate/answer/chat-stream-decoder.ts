import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import type { SseEvent } from '../sse/sse-parser.js';
import type { AnswerSink, StopReason, TokenUsage } from './answer.js';
import { fromChatFinish } from './stop-reasons.js';
import type { StreamDecoder } from './stream-decoder.js';
import { ToolCallSequencer } from './tool-call-sequencer.js';
import { fromChatUsage } from './usage.js';
import { upstreamErrorMessage } from './upstream-error-message.js';

/** What some servers add to a delta: reasoning text, which no agent wire here carries back. */
type Delta = ChatCompletionChunk.Choice.Delta & { reasoning_content?: unknown; reasoning?: unknown };

/**
 * A Chat Completions stream, chunk by chunk. The answer is complete at
 * `[DONE]`, or as soon as the usage chunk (asked with `include_usage`,
 * sent after the `finish_reason` chunk) has come, or — when the upstream
 * sends neither — at a clean end after a `finish_reason`. `[DONE]` without
 * any `finish_reason` is complete too (tool calls if there were any, else
 * a normal stop). An end with neither is a cut.
 */
export class ChatStreamDecoder implements StreamDecoder {
  private started = false;
  private id = '';
  private finishReason: StopReason | null = null;
  private usage: TokenUsage | null = null;
  private done = false;
  private readonly tools = new ToolCallSequencer();

  event(event: SseEvent, sink: AnswerSink): void {
    if (this.done) return;
    if (event.data === '[DONE]') {
      this.complete(sink, this.finishReason ?? (this.tools.any ? 'tool_calls' : 'stop'));
      return;
    }
    let chunk: ChatCompletionChunk & { error?: unknown };
    try {
      chunk = JSON.parse(event.data);
    } catch {
      this.fail(sink, 'bad_answer', 'the upstream sent an event that is not JSON');
      return;
    }
    if (chunk === null || typeof chunk !== 'object') return this.fail(sink, 'bad_answer', 'the upstream sent an event that is not a chunk');
    if (chunk.error !== undefined) return this.fail(sink, 'upstream_error', upstreamErrorMessage(chunk.error));
    if (!this.started) {
      this.started = true;
      this.id = typeof chunk.id === 'string' ? chunk.id : '';
      sink.start(this.id, typeof chunk.model === 'string' ? chunk.model : '');
    }
    const choice = Array.isArray(chunk.choices) ? chunk.choices.find((c) => c.index === 0 || c.index === undefined) : undefined;
    if (choice !== undefined) {
      const delta = (choice.delta ?? {}) as Delta;
      if (typeof delta.content === 'string' && delta.content !== '') this.tools.text(sink, delta.content);
      if (typeof delta.refusal === 'string' && delta.refusal !== '') this.tools.text(sink, delta.refusal);
      if (Array.isArray(delta.tool_calls)) {
        for (const call of delta.tool_calls) {
          const fn = call.function;
          this.tools.piece(
            sink,
            typeof call.index === 'number' ? call.index : undefined,
            call.id ?? undefined,
            fn?.name ?? undefined,
            fn?.arguments ?? undefined,
          );
        }
      }
      if (choice.finish_reason) this.finishReason = fromChatFinish(choice.finish_reason);
    }
    if (chunk.usage) {
      this.usage = fromChatUsage(chunk.usage);
      if (this.finishReason !== null) this.complete(sink, this.finishReason);
    }
  }

  end(sink: AnswerSink): boolean {
    if (!this.done && this.finishReason !== null) this.complete(sink, this.finishReason);
    return this.done;
  }

  private complete(sink: AnswerSink, stop: StopReason): void {
    this.done = true;
    if (!this.started) {
      this.started = true;
      sink.start('', '');
    }
    const nameless = this.tools.flush(sink, this.id);
    if (nameless !== null) return sink.fail('bad_answer', `the upstream streamed tool call ${nameless} without a name`);
    sink.finish(stop, this.usage);
  }

  private fail(sink: AnswerSink, kind: 'upstream_error' | 'bad_answer', message: string): void {
    this.done = true;
    sink.fail(kind, message);
  }
}
