import type {
  ResponseContentPartAddedEvent,
  ResponseContentPartDoneEvent,
  ResponseCustomToolCallInputDeltaEvent,
  ResponseCustomToolCallInputDoneEvent,
  ResponseFunctionCallArgumentsDeltaEvent,
  ResponseFunctionCallArgumentsDoneEvent,
  ResponseTextDeltaEvent,
  ResponseTextDoneEvent,
} from 'openai/resources/responses/responses';
import { namedEvent } from '../sse/sse-format.js';
import type { DeclaredTool } from '../wire.js';
import { idSafe, type StopReason, type TokenUsage } from './answer.js';
import { type AnswerEncoder, EncoderState } from './answer-encoder.js';
import { callItem, callItemId } from './responses-call-items.js';
import { messageItem, type OutputItem, outputText, type ResponseEnd, responseObject, type WireResponse } from './responses-response.js';
import { agentUsage } from './usage.js';

type Open =
  | { kind: 'message'; id: string; index: number; text: string[] }
  | { kind: 'call'; id: string; index: number; callId: string; name: string; declared: DeclaredTool | undefined; args: string[] };

/** Events without their `sequence_number`, which the encoder numbers as it writes them. */
type Unnumbered<T> = Omit<T, 'sequence_number'>;

type Written =
  | {
      type: 'response.created' | 'response.in_progress' | 'response.completed' | 'response.incomplete' | 'response.failed';
      response: WireResponse;
    }
  | { type: 'response.output_item.added' | 'response.output_item.done'; output_index: number; item: OutputItem }
  | Unnumbered<ResponseContentPartAddedEvent>
  | Unnumbered<ResponseTextDeltaEvent>
  | Unnumbered<ResponseTextDoneEvent>
  | Unnumbered<ResponseContentPartDoneEvent>
  | Unnumbered<ResponseFunctionCallArgumentsDeltaEvent>
  | Unnumbered<ResponseFunctionCallArgumentsDoneEvent>
  | Unnumbered<ResponseCustomToolCallInputDeltaEvent>
  | Unnumbered<ResponseCustomToolCallInputDoneEvent>;

/**
 * A Responses API stream for a Responses agent (Codex): `response.created`,
 * `response.in_progress`, then each output item added, its content streamed
 * and done — a message's text, a function call's arguments, a freeform
 * tool's input — and `response.completed` (or `response.incomplete` for an
 * answer cut by length or a refusal) with every item and the usage, each
 * event numbered from 0. A call the agent declared freeform, as
 * `local_shell` or as a client tool search goes back as that item: its
 * input is taken out of the arguments once they are whole. A failure ends
 * the stream with `response.failed`.
 */
export class ResponsesStreamEncoder extends EncoderState implements AnswerEncoder {
  private sequence = 0;
  private started = false;
  private id = '';
  private base = '';
  private model = '';
  private readonly items: OutputItem[] = [];
  private openItem: Open | null = null;

  constructor(
    private readonly created: number,
    private readonly declaredTools: ReadonlyMap<string, DeclaredTool> | null,
  ) {
    super();
  }

  start(id: string, model: string): void {
    if (this.started || !this.open) return;
    this.started = true;
    this.base = idSafe(id);
    this.id = `resp_${this.base}`;
    this.model = model;
    this.event({ type: 'response.created', response: this.response(null) });
    this.event({ type: 'response.in_progress', response: this.response(null) });
  }

  text(text: string): void {
    if (!this.open || text === '') return;
    let open = this.openItem;
    if (open?.kind !== 'message') {
      if (!this.close()) return;
      open = { kind: 'message', id: `msg_${this.base}_${this.items.length}`, index: this.items.length, text: [] };
      this.openItem = open;
      this.event({ type: 'response.output_item.added', output_index: open.index, item: messageItem(open.id, '', 'in_progress') });
      this.event({
        type: 'response.content_part.added',
        item_id: open.id,
        output_index: open.index,
        content_index: 0,
        part: outputText(''),
      });
    }
    open.text.push(text);
    this.event({
      type: 'response.output_text.delta',
      item_id: open.id,
      output_index: open.index,
      content_index: 0,
      delta: text,
      logprobs: [],
    });
  }

  toolStart(callId: string, name: string): void {
    if (!this.open || !this.close()) return;
    const declared = this.declaredTools?.get(name);
    const index = this.items.length;
    const open: Open = { kind: 'call', id: callItemId(declared, `${this.base}_${index}`), index, callId, name, declared, args: [] };
    this.openItem = open;
    // a function call and a freeform call stream; a shell call or a tool search is sent once its arguments are whole
    if (declared === undefined || declared.kind === 'function' || declared.kind === 'custom') {
      const item = callItem(
        declared,
        open.id,
        { id: callId, name, arguments: declared?.kind === 'custom' ? '{"input":""}' : '' },
        'in_progress',
      );
      if (!('ok' in item)) this.event({ type: 'response.output_item.added', output_index: index, item });
    }
  }

  toolArgs(piece: string): void {
    const open = this.openItem;
    if (!this.open || open?.kind !== 'call' || piece === '') return;
    open.args.push(piece);
    if (open.declared === undefined || open.declared.kind === 'function') {
      this.event({
        type: 'response.function_call_arguments.delta',
        item_id: open.id,
        output_index: open.index,
        delta: piece,
      });
    }
  }

  finish(stop: StopReason, usage: TokenUsage | null): void {
    if (!this.open) return;
    this.start('', '');
    if (!this.close()) return;
    const response = this.response({ stop, usage });
    const type = response.status === 'incomplete' ? 'response.incomplete' : 'response.completed';
    this.event({ type, response });
    this.usage = agentUsage('openai', usage);
    this.outcome = { end: 'complete' };
  }

  fail(kind: 'upstream_error' | 'bad_answer', message: string): void {
    if (!this.open) return;
    this.failed(message);
    this.outcome = { end: kind, message };
  }

  cut(message: string): void {
    if (!this.open) return;
    this.failed(message);
    this.outcome = { end: 'cut' };
  }

  private failed(message: string): void {
    this.start('', '');
    this.event({ type: 'response.failed', response: this.response({ failed: message }) });
  }

  /** Ends the open item; false (and the stream failed) when a call's arguments do not fit the item the agent declared. */
  private close(): boolean {
    const open = this.openItem;
    if (open === null) return true;
    this.openItem = null;
    if (open.kind === 'message') {
      const text = open.text.join('');
      const at = { item_id: open.id, output_index: open.index, content_index: 0 };
      this.event({ type: 'response.output_text.done', ...at, text, logprobs: [] });
      this.event({ type: 'response.content_part.done', ...at, part: outputText(text) });
      this.done(open.index, messageItem(open.id, text, 'completed'));
      return true;
    }
    const args = open.args.join('');
    const item = callItem(open.declared, open.id, { id: open.callId, name: open.name, arguments: args }, 'completed');
    if ('ok' in item) {
      this.fail('bad_answer', item.message);
      return false;
    }
    const at = { item_id: open.id, output_index: open.index };
    if (item.type === 'function_call') {
      this.event({
        type: 'response.function_call_arguments.done',
        ...at,
        name: item.name,
        arguments: args,
      });
    } else if (item.type === 'custom_tool_call') {
      this.event({
        type: 'response.custom_tool_call_input.delta',
        ...at,
        delta: item.input,
      });
      this.event({
        type: 'response.custom_tool_call_input.done',
        ...at,
        input: item.input,
      });
    } else {
      this.event({ type: 'response.output_item.added', output_index: open.index, item: { ...item, status: 'in_progress' } });
    }
    this.done(open.index, item);
    return true;
  }

  private done(index: number, item: OutputItem): void {
    this.items.push(item);
    this.event({ type: 'response.output_item.done', output_index: index, item });
  }

  private response(end: ResponseEnd): WireResponse {
    return responseObject(this.id, this.created, this.model, end === null ? [] : this.items, end);
  }

  /** Numbers the event as it is written (each is a fresh object: setting the member costs less than copying the event). */
  private event(data: Written): void {
    (data as Written & { sequence_number: number }).sequence_number = this.sequence++;
    this.out += namedEvent(data.type, data);
  }
}
