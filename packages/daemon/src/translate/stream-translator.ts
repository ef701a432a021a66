import type { Usage } from '@routeplane/shared';
import { AnswerAssembler } from './answer/answer-assembler.js';
import type { AnswerEncoder, StreamOutcome } from './answer/answer-encoder.js';
import type { StreamDecoder } from './answer/stream-decoder.js';
import { answerWriter, streamDecoder, streamEncoder } from './answer/wires.js';
import { type SseEvent, SseParser } from './sse/sse-parser.js';
import type { AnswerPlan } from './wire.js';

export type { StreamOutcome };

/**
 * One upstream stream translated for the agent, chunk by chunk: upstream
 * bytes in, the agent's bytes out. No timers and no copy of the answer's
 * bytes; what is held is the part of an event not yet ended and, for
 * tool calls, what the agent's wire needs before it can be sent.
 */
export interface StreamTranslator {
  /** The agent's bytes for this upstream chunk (often empty; always empty for an agent that did not stream). */
  push(chunk: Buffer): Buffer;
  /** Null while the answer is open; set as soon as the upstream's events end it (complete or failed). */
  readonly outcome: StreamOutcome | null;
  /**
   * The upstream body ended (cleanly or not): the last bytes for the agent
   * and how the answer ended. For an agent that did not stream, the bytes
   * are the whole JSON answer when it is complete, else empty.
   */
  finish(): { bytes: Buffer; outcome: StreamOutcome };
  /**
   * The bytes that end a streaming agent's answer as failed, in its own
   * wire (`event: error`, `data: {"error"…}`, `response.failed`), for a
   * failure only the proxy sees (a cut, an idle timeout). Empty once the
   * answer has ended, and for an agent that did not stream.
   */
  fail(message: string): Buffer;
  /** The answer's usage in the agent's family's figures, once its end reported it. */
  readonly usage: Usage | null;
}

const EMPTY = Buffer.alloc(0);

class WireStreamTranslator implements StreamTranslator {
  private readonly parser: SseParser;
  /** the upstream body ended without ending the answer */
  private cutShort = false;

  constructor(
    private readonly decoder: StreamDecoder,
    private readonly encoder: AnswerEncoder,
    private readonly streaming: boolean,
  ) {
    this.parser = new SseParser((event: SseEvent) => this.decoder.event(event, this.encoder));
  }

  get outcome(): StreamOutcome | null {
    return this.encoder.outcome ?? (this.cutShort ? CUT : null);
  }

  get usage(): Usage | null {
    return this.encoder.usage;
  }

  push(chunk: Buffer): Buffer {
    if (this.encoder.outcome !== null || this.cutShort) return EMPTY;
    this.parser.push(chunk);
    return this.streaming ? this.taken() : EMPTY;
  }

  finish(): { bytes: Buffer; outcome: StreamOutcome } {
    if (this.encoder.outcome === null && !this.cutShort && !this.decoder.end(this.encoder)) this.cutShort = true;
    const outcome = this.outcome ?? CUT;
    // a cut writes nothing here: the proxy ends the agent's stream with `fail`, in its own words
    const bytes = outcome.end === 'cut' ? EMPTY : this.streaming || outcome.end === 'complete' ? this.taken() : EMPTY;
    return { bytes, outcome };
  }

  fail(message: string): Buffer {
    if (!this.streaming || this.encoder.outcome !== null) return EMPTY;
    this.cutShort = true;
    this.encoder.cut(message);
    return this.taken();
  }

  private taken(): Buffer {
    const text = this.encoder.take();
    return text === '' ? EMPTY : Buffer.from(text);
  }
}

const CUT: StreamOutcome = { end: 'cut' };

/** The translator for one attempt's streamed answer; `created` (epoch seconds) is the answer's time where the agent's wire needs one. */
export function createStreamTranslator(plan: AnswerPlan, created: number): StreamTranslator {
  const encoder = plan.agentStream ? streamEncoder(plan, created) : new AnswerAssembler(answerWriter(plan, created));
  return new WireStreamTranslator(streamDecoder(plan.upstreamWire), encoder, plan.agentStream);
}
