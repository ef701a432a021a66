/**
 * An answer between two wires: what every upstream answer is read into and
 * every agent answer is written from, so each wire has one reader and one
 * writer instead of one mapper per pair.
 */

/** Why the model stopped, in the terms all three wires share. */
export type StopReason = 'stop' | 'length' | 'tool_calls' | 'refusal';

/** Token counts with the cached part apart: `input` excludes what was read from or written to the cache. */
export interface TokenUsage {
  input: number;
  cacheRead: number;
  cacheWrite: number;
  output: number;
}

export interface ToolCall {
  id: string;
  name: string;
  /** the arguments as JSON text, as the model wrote them */
  arguments: string;
}

/** A whole (non-streamed) answer. */
export interface Answer {
  id: string;
  model: string;
  text: string;
  toolCalls: ToolCall[];
  stop: StopReason;
  usage: TokenUsage | null;
}

/**
 * A streamed answer, one step at a time, in order: `start` first; text and
 * tool calls in the order the agent should see them (a tool call's
 * arguments follow its start; the next start or `finish` ends it); then
 * `finish` or `fail`.
 */
export interface AnswerSink {
  start(id: string, model: string): void;
  text(text: string): void;
  toolStart(id: string, name: string): void;
  toolArgs(piece: string): void;
  finish(stop: StopReason, usage: TokenUsage | null): void;
  /** `upstream_error`: the upstream reported an error mid-stream; `bad_answer`: it sent something that cannot be carried */
  fail(kind: 'upstream_error' | 'bad_answer', message: string): void;
}

/** The `bad_answer` result: the attempt counts as a model error. */
export interface BadAnswer {
  ok: false;
  message: string;
}

export function badAnswer(message: string): BadAnswer {
  return { ok: false, message };
}

/** Ids the wires accept (`^[a-zA-Z0-9_-]+$`), made from an upstream id that may hold anything. */
export function idSafe(id: string): string {
  return id.replace(/[^a-zA-Z0-9_-]/g, '');
}
