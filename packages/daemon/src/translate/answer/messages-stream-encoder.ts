import type {
  Message,
  RawContentBlockDeltaEvent,
  RawContentBlockStopEvent,
  RawMessageDeltaEvent,
  RawMessageStopEvent,
  TextBlock,
  ToolUseBlock,
} from '@anthropic-ai/sdk/resources/messages';
import { namedEvent } from '../sse/sse-format.js';
import { idSafe, type StopReason, type TokenUsage } from './answer.js';
import { type AnswerEncoder, EncoderState } from './answer-encoder.js';
import { toMessagesStop } from './stop-reasons.js';
import { notAnObject, toolInput } from './tool-input.js';
import { agentUsage, type MessagesAnswerUsage, toMessagesUsage } from './usage.js';

type MessageStart = {
  type: 'message_start';
  message: Pick<Message, 'id' | 'type' | 'role' | 'model' | 'content' | 'stop_reason' | 'stop_sequence'> & { usage: MessagesAnswerUsage };
};
type BlockStart = {
  type: 'content_block_start';
  index: number;
  content_block: Pick<TextBlock, 'type' | 'text'> | Pick<ToolUseBlock, 'type' | 'id' | 'name' | 'input'>;
};
type MessageDelta = {
  type: 'message_delta';
  delta: Pick<RawMessageDeltaEvent.Delta, 'stop_reason' | 'stop_sequence'>;
  usage: MessagesAnswerUsage;
};

/**
 * A Messages API stream for an Anthropic agent: `message_start` (input
 * usage 0: the real counts come with `message_delta`), one block at a time
 * with indexes from 0, each stopped when the next starts or the answer
 * ends, then `message_delta` with the stop reason and usage, and
 * `message_stop`. A tool call's arguments are checked when its block ends:
 * not a JSON object ends the stream with an error instead.
 */
export class MessagesStreamEncoder extends EncoderState implements AnswerEncoder {
  private started = false;
  private index = -1;
  private block: 'text' | 'tool' | null = null;
  private toolName = '';
  private toolArgsSeen: string[] = [];

  start(id: string, model: string): void {
    if (this.started || !this.open) return;
    this.started = true;
    const event: MessageStart = {
      type: 'message_start',
      message: {
        id: `msg_${idSafe(id)}`,
        type: 'message',
        role: 'assistant',
        model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 0 },
      },
    };
    this.out += namedEvent('message_start', event);
  }

  text(text: string): void {
    if (!this.open || text === '') return;
    if (this.block !== 'text') {
      if (!this.closeBlock()) return;
      this.startBlock({ type: 'text', text: '' });
      this.block = 'text';
    }
    const event: RawContentBlockDeltaEvent = { type: 'content_block_delta', index: this.index, delta: { type: 'text_delta', text } };
    this.out += namedEvent('content_block_delta', event);
  }

  toolStart(id: string, name: string): void {
    if (!this.open || !this.closeBlock()) return;
    this.startBlock({ type: 'tool_use', id, name, input: {} });
    this.block = 'tool';
    this.toolName = name;
    this.toolArgsSeen = [];
  }

  toolArgs(piece: string): void {
    if (!this.open || this.block !== 'tool' || piece === '') return;
    this.toolArgsSeen.push(piece);
    const event: RawContentBlockDeltaEvent = {
      type: 'content_block_delta',
      index: this.index,
      delta: { type: 'input_json_delta', partial_json: piece },
    };
    this.out += namedEvent('content_block_delta', event);
  }

  finish(stop: StopReason, usage: TokenUsage | null): void {
    if (!this.open) return;
    this.start('', '');
    if (!this.closeBlock()) return;
    const delta: MessageDelta = {
      type: 'message_delta',
      delta: { stop_reason: toMessagesStop(stop), stop_sequence: null },
      usage: toMessagesUsage(usage),
    };
    const end: RawMessageStopEvent = { type: 'message_stop' };
    this.out += namedEvent('message_delta', delta) + namedEvent('message_stop', end);
    this.usage = agentUsage('anthropic', usage);
    this.outcome = { end: 'complete' };
  }

  fail(kind: 'upstream_error' | 'bad_answer', message: string): void {
    if (!this.open) return;
    this.error(message);
    this.outcome = { end: kind, message };
  }

  cut(message: string): void {
    if (!this.open) return;
    this.error(message);
    this.outcome = { end: 'cut' };
  }

  private error(message: string): void {
    this.out += namedEvent('error', { type: 'error', error: { type: 'api_error', message } });
  }

  private startBlock(block: BlockStart['content_block']): void {
    this.index++;
    const event: BlockStart = { type: 'content_block_start', index: this.index, content_block: block };
    this.out += namedEvent('content_block_start', event);
  }

  /** Stops the open block; false (and the stream failed) when it was a tool call whose arguments are not a JSON object. */
  private closeBlock(): boolean {
    if (this.block === null) return true;
    if (this.block === 'tool') {
      const args = this.toolArgsSeen.join('');
      this.toolArgsSeen = [];
      if (toolInput(args) === null) {
        this.block = null;
        this.fail('bad_answer', notAnObject(this.toolName));
        return false;
      }
    }
    const event: RawContentBlockStopEvent = { type: 'content_block_stop', index: this.index };
    this.out += namedEvent('content_block_stop', event);
    this.block = null;
    return true;
  }
}
