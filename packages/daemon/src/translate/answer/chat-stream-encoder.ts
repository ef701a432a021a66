import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import { CHAT_DONE, dataEvent } from '../sse/sse-format.js';
import type { StopReason, TokenUsage } from './answer.js';
import { type AnswerEncoder, EncoderState } from './answer-encoder.js';
import { toChatFinish } from './stop-reasons.js';
import { agentUsage, type ChatAnswerUsage, toChatUsage } from './usage.js';

type Chunk = Omit<ChatCompletionChunk, 'usage' | 'choices'> & {
  choices: Array<Pick<ChatCompletionChunk.Choice, 'index' | 'delta' | 'finish_reason'>>;
  usage?: ChatAnswerUsage;
};

/**
 * A Chat Completions stream for an OpenAI agent: a first chunk with the
 * assistant role, content and tool-call deltas (tool calls indexed from 0),
 * a chunk with the `finish_reason`, the usage chunk when the agent asked
 * for it, then `[DONE]`. Every chunk has the same id, `created` and model.
 */
export class ChatStreamEncoder extends EncoderState implements AnswerEncoder {
  private id = '';
  private model = '';
  private started = false;
  private toolIndex = -1;

  constructor(
    private readonly created: number,
    private readonly includeUsage: boolean,
  ) {
    super();
  }

  start(id: string, model: string): void {
    if (this.started || !this.open) return;
    this.started = true;
    this.id = `chatcmpl-${id}`;
    this.model = model;
    this.chunk({ role: 'assistant', content: '' }, null);
  }

  text(text: string): void {
    if (this.open && text !== '') this.chunk({ content: text }, null);
  }

  toolStart(id: string, name: string): void {
    if (!this.open) return;
    this.toolIndex++;
    this.chunk({ tool_calls: [{ index: this.toolIndex, id, type: 'function', function: { name, arguments: '' } }] }, null);
  }

  toolArgs(piece: string): void {
    if (this.open && piece !== '' && this.toolIndex >= 0)
      this.chunk({ tool_calls: [{ index: this.toolIndex, function: { arguments: piece } }] }, null);
  }

  finish(stop: StopReason, usage: TokenUsage | null): void {
    if (!this.open) return;
    this.start('', '');
    this.chunk({}, toChatFinish(stop));
    if (this.includeUsage) {
      const last: Chunk = {
        id: this.id,
        object: 'chat.completion.chunk',
        created: this.created,
        model: this.model,
        choices: [],
        usage: toChatUsage(usage),
      };
      this.out += dataEvent(last);
    }
    this.out += CHAT_DONE;
    this.usage = agentUsage('openai', usage);
    this.outcome = { end: 'complete' };
  }

  fail(kind: 'upstream_error' | 'bad_answer', message: string): void {
    if (!this.open) return;
    this.out += dataEvent({ error: { message, type: 'upstream_error', code: kind } });
    this.outcome = { end: kind, message };
  }

  cut(message: string): void {
    if (!this.open) return;
    this.out += dataEvent({ error: { message, type: 'upstream_error', code: 'stream_error' } });
    this.outcome = { end: 'cut' };
  }

  private chunk(delta: ChatCompletionChunk.Choice.Delta, finish: ChatCompletionChunk.Choice['finish_reason']): void {
    const chunk: Chunk = {
      id: this.id,
      object: 'chat.completion.chunk',
      created: this.created,
      model: this.model,
      choices: [{ index: 0, delta, finish_reason: finish }],
    };
    this.out += dataEvent(chunk);
  }
}
