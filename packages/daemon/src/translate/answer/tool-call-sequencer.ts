import { type AnswerSink, idSafe } from './answer.js';

interface PendingCall {
  index: number;
  id: string;
  name: string;
  /** argument pieces not sent yet */
  held: string[];
}

/**
 * Streamed tool calls keyed by index, put in the order an agent can take:
 * one call at a time, each whole before the next begins.
 *
 * The first call is sent as it streams once its id and name are both known
 * (what arrived before its name is sent right after its start: a first
 * delta with an empty name, as DeepSeek sends, is held, never dropped; a
 * later call does not go ahead of it).
 * Nothing says when a streamed call is over, and upstreams interleave
 * pieces of several calls by index, so every other call is held and sent
 * whole at the end, in index order; text that comes while a call streams
 * is held too, and sent after the calls. Nothing is sent twice, and nothing
 * is sent to a call once the next one has begun.
 */
export class ToolCallSequencer {
  private readonly calls: PendingCall[] = [];
  private live: PendingCall | null = null;
  private heldText: string[] | null = null;

  get any(): boolean {
    return this.calls.length > 0;
  }

  /** One delta of one call; `index` missing (some servers omit it): a new id is a new call, else the last one. */
  piece(sink: AnswerSink, index: number | undefined, id: string | undefined, name: string | undefined, args: string | undefined): void {
    const call = this.callFor(index, id);
    if (call.id === '' && id) call.id = id;
    if (call.name === '' && name) call.name = name;
    if (call === this.live) {
      if (args) sink.toolArgs(args);
      return;
    }
    if (args) call.held.push(args);
    if (this.live === null && call.id !== '' && call.name !== '' && this.calls.every((other) => other.index >= call.index)) {
      this.live = call;
      sink.toolStart(call.id, call.name);
      if (call.held.length > 0) sink.toolArgs(call.held.join(''));
      call.held = [];
    }
  }

  text(sink: AnswerSink, text: string): void {
    if (this.live === null) sink.text(text);
    else (this.heldText ??= []).push(text);
  }

  /**
   * The held calls, whole, in index order, then the held text. A call that
   * never got an id gets one made from the answer's; one that never got a
   * name cannot be carried: its name is the tool to run. Returns that
   * call's index, or null.
   */
  flush(sink: AnswerSink, answerId: string): number | null {
    const held = this.calls.filter((call) => call !== this.live).sort((a, b) => a.index - b.index);
    for (const call of held) if (call.name === '') return call.index;
    for (const call of held) {
      sink.toolStart(call.id !== '' ? call.id : `toolu_${idSafe(answerId)}_${call.index}`, call.name);
      if (call.held.length > 0) sink.toolArgs(call.held.join(''));
    }
    if (this.heldText !== null) sink.text(this.heldText.join(''));
    return null;
  }

  private callFor(index: number | undefined, id: string | undefined): PendingCall {
    const calls = this.calls;
    if (index === undefined) {
      const last = calls.at(-1);
      if (last !== undefined && (!id || last.id === '' || last.id === id)) return last;
      index = calls.length === 0 ? 0 : calls.at(-1)!.index + 1;
    }
    for (let i = calls.length - 1; i >= 0; i--) if (calls[i]!.index === index) return calls[i]!;
    const call: PendingCall = { index, id: '', name: '', held: [] };
    calls.push(call);
    return call;
  }
}
