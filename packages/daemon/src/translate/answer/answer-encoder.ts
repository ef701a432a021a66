import type { Usage } from '@routeplane/shared';
import type { AnswerSink } from './answer.js';

/**
 * How a translated stream ended. `complete`: the answer is whole. `cut`: the
 * upstream body ended (or broke) before the answer did, and nothing in it
 * said why. `upstream_error`: the upstream reported an error mid-stream.
 * `bad_answer`: the upstream sent what the agent's wire cannot carry (a
 * tool call whose arguments are not a JSON object, a call with no name).
 */
export type StreamOutcome = { end: 'complete' } | { end: 'cut' } | { end: 'upstream_error' | 'bad_answer'; message: string };

/** Writes one agent wire from an answer, as text to send; `take` hands over what was written since the last call. */
export interface AnswerEncoder extends AnswerSink {
  take(): string;
  /** null while the answer is open */
  readonly outcome: StreamOutcome | null;
  /** the agent's figures, once known */
  readonly usage: Usage | null;
  /** Ends an open answer as failed in the agent's wire (a cut, a timeout); nothing once it has ended. */
  cut(message: string): void;
}

/** What every encoder keeps: the text not yet taken, the outcome, the usage. */
export abstract class EncoderState {
  protected out = '';
  outcome: StreamOutcome | null = null;
  usage: Usage | null = null;

  take(): string {
    const out = this.out;
    this.out = '';
    return out;
  }

  protected get open(): boolean {
    return this.outcome === null;
  }
}
