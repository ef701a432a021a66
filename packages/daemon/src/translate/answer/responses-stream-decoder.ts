import type { Response, ResponseStreamEvent } from 'openai/resources/responses/responses';
import type { SseEvent } from '../sse/sse-parser.js';
import type { AnswerSink, StopReason } from './answer.js';
import type { StreamDecoder } from './stream-decoder.js';
import { ToolCallSequencer } from './tool-call-sequencer.js';
import { fromResponsesUsage } from './usage.js';
import { upstreamErrorMessage } from './upstream-error-message.js';

/** Items an answer may hold that carry nothing to an agent of another wire. */
const SILENT_ITEMS = new Set(['message', 'reasoning']);

/**
 * A Responses API stream (a `wire: responses` seat, the Codex backend).
 * Text comes from `output_text` deltas (or the `.done` text when a part had
 * none), function calls from their item and argument deltas, keyed by
 * output index and put in order as a chat stream's are; reasoning is
 * dropped. Complete at `response.completed` or `response.incomplete`;
 * `response.failed` and `error` are the upstream's failure. The completed
 * response's `output` is not needed (the Codex backend sends it empty).
 */
export class ResponsesStreamDecoder implements StreamDecoder {
  private started = false;
  private id = '';
  private done = false;
  private readonly tools = new ToolCallSequencer();
  /** output indexes of function calls whose arguments were seen (deltas, or a whole `.done`) */
  private readonly argsSeen = new Set<number>();
  /** text parts (`index:part`) that streamed deltas */
  private readonly textSeen = new Set<string>();

  event(event: SseEvent, sink: AnswerSink): void {
    if (this.done) return;
    let e: ResponseStreamEvent;
    try {
      e = JSON.parse(event.data);
    } catch {
      return this.fail(sink, 'bad_answer', 'the upstream sent an event that is not JSON');
    }
    if (e.type !== 'response.created' && e.type !== 'error' && !this.started) this.begin(sink, '', '');
    switch (e.type) {
      case 'response.created':
        return this.begin(sink, e.response.id, e.response.model);
      case 'response.output_item.added': {
        const item = e.item;
        if (item.type === 'function_call') {
          this.tools.piece(sink, e.output_index, item.call_id, item.name, undefined);
          if (item.arguments) this.args(sink, e.output_index, item.arguments);
        } else if (!SILENT_ITEMS.has(item.type)) this.fail(sink, 'bad_answer', `the upstream answered with a ${item.type} item`);
        return;
      }
      case 'response.output_text.delta':
        this.textSeen.add(`${e.output_index}:${e.content_index}`);
        if (e.delta) this.tools.text(sink, e.delta);
        return;
      case 'response.output_text.done':
        if (!this.textSeen.has(`${e.output_index}:${e.content_index}`) && e.text) this.tools.text(sink, e.text);
        return;
      case 'response.refusal.delta':
        if (e.delta) this.tools.text(sink, e.delta);
        return;
      case 'response.function_call_arguments.delta':
        return this.args(sink, e.output_index, e.delta);
      case 'response.function_call_arguments.done':
        if (!this.argsSeen.has(e.output_index)) this.args(sink, e.output_index, e.arguments);
        return;
      case 'response.output_item.done':
        if (e.item.type === 'function_call' && !this.argsSeen.has(e.output_index)) {
          this.tools.piece(sink, e.output_index, e.item.call_id, e.item.name, undefined);
          this.args(sink, e.output_index, e.item.arguments);
        }
        return;
      case 'response.completed':
      case 'response.incomplete':
        return this.complete(sink, e.response);
      case 'response.failed':
        return this.fail(sink, 'upstream_error', upstreamErrorMessage(e.response.error));
      case 'error':
        return this.fail(sink, 'upstream_error', upstreamErrorMessage(e));
      default:
        // in_progress, content parts, reasoning summaries, and event types added after this was written
        return;
    }
  }

  end(): boolean {
    return this.done;
  }

  private begin(sink: AnswerSink, id: string, model: string): void {
    if (this.started) return;
    this.started = true;
    this.id = id;
    sink.start(id, model);
  }

  private args(sink: AnswerSink, index: number, piece: string): void {
    this.argsSeen.add(index);
    this.tools.piece(sink, index, undefined, undefined, piece || undefined);
  }

  private complete(sink: AnswerSink, response: Response): void {
    this.done = true;
    const nameless = this.tools.flush(sink, this.id);
    if (nameless !== null) return sink.fail('bad_answer', `the upstream streamed function call ${nameless} without a name`);
    const reason = response.incomplete_details?.reason;
    const stop: StopReason =
      response.status === 'incomplete' ? (reason === 'content_filter' ? 'refusal' : 'length') : this.tools.any ? 'tool_calls' : 'stop';
    sink.finish(stop, response.usage ? fromResponsesUsage(response.usage) : null);
  }

  private fail(sink: AnswerSink, kind: 'upstream_error' | 'bad_answer', message: string): void {
    this.done = true;
    sink.fail(kind, message);
  }
}
