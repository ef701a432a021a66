import type { SseEvent } from '../sse/sse-parser.js';
import type { AnswerSink } from './answer.js';

/** Reads one upstream wire's stream, one parsed event at a time, into an answer sink. */
export interface StreamDecoder {
  event(event: SseEvent, sink: AnswerSink): void;
  /** The upstream body ended: finishes what can be finished; false when the answer was cut short. */
  end(sink: AnswerSink): boolean;
}
