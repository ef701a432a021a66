import type { Answer, BadAnswer, StopReason, TokenUsage, ToolCall } from './answer.js';
import { type AnswerEncoder, EncoderState } from './answer-encoder.js';

/** Writes a whole answer in the agent's wire: its JSON text, or why it cannot be carried. */
export type AnswerWriter = (answer: Answer) => { text: string; usage: AnswerEncoder['usage'] } | BadAnswer;

/**
 * Collects a streamed answer into a whole one, for an agent that did not
 * stream while its upstream did (ChatGPT's Codex backend streams every
 * answer). Nothing is sent before the end: `take` gives the JSON body once
 * the answer is complete.
 */
export class AnswerAssembler extends EncoderState implements AnswerEncoder {
  private id = '';
  private model = '';
  private readonly texts: string[] = [];
  private readonly calls: Array<ToolCall & { pieces: string[] }> = [];

  constructor(private readonly write: AnswerWriter) {
    super();
  }

  start(id: string, model: string): void {
    this.id = id;
    this.model = model;
  }

  text(text: string): void {
    if (this.open) this.texts.push(text);
  }

  toolStart(id: string, name: string): void {
    if (this.open) this.calls.push({ id, name, arguments: '', pieces: [] });
  }

  toolArgs(piece: string): void {
    if (this.open) this.calls.at(-1)?.pieces.push(piece);
  }

  finish(stop: StopReason, usage: TokenUsage | null): void {
    if (!this.open) return;
    const toolCalls = this.calls.map((call) => ({ id: call.id, name: call.name, arguments: call.pieces.join('') }));
    const written = this.write({ id: this.id, model: this.model, text: this.texts.join(''), toolCalls, stop, usage });
    if ('ok' in written) {
      this.outcome = { end: 'bad_answer', message: written.message };
      return;
    }
    this.out = written.text;
    this.usage = written.usage;
    this.outcome = { end: 'complete' };
  }

  fail(kind: 'upstream_error' | 'bad_answer', message: string): void {
    if (this.open) this.outcome = { end: kind, message };
  }

  /** Nothing reached the agent: there is nothing to end. */
  cut(): void {
    if (this.open) this.outcome = { end: 'cut' };
  }
}
