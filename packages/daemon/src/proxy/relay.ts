import type { ServerResponse } from 'node:http';
import type { Family } from '@routeplane/shared';
import type { AgentLink } from './agent-link.js';
import { streamErrorEvent } from './error-shapes.js';
import type { HeaderMap } from './headers.js';
import { classifyTransportError } from './upstream-client.js';
import type { BodySink, UpstreamBody } from './upstream-exchange.js';
import type { Classified } from '../signals/classify.js';
import type { FirstChunkVerdict } from '../signals/embedded-error.js';
import type { StreamErrorScan } from '../signals/stream-error-scan.js';
import type { UsageTap } from '../usage/usage-tap.js';

export type RelayResult =
  /** `passedBack`: the first chunk was an error that is the request's own fault, relayed as sent — no success */
  | { kind: 'done'; passedBack: Classified | null }
  /** the first chunk showed an error instead of an answer: nothing reached the agent */
  | { kind: 'embedded_error'; classified: Classified; body: Buffer }
  /** the body failed before any byte reached the agent: the request may still fail over */
  | { kind: 'failed_early'; failure: 'timeout' | 'network' }
  /** the body failed after bytes reached the agent: the stream was ended with an error event, or cut */
  | { kind: 'broken'; failure: 'timeout' | 'network' }
  /**
   * the upstream's own error event went to the agent in a served stream:
   * relayed as sent, the stream ended as the upstream (or the agent) ended it — no success
   */
  | { kind: 'error_event' }
  | { kind: 'aborted' };

/** Reads the head of a 2xx (every chunk so far, joined): serve it, wait for more, or what the error inside it is evidence of. */
export type FirstChunkCheck = (head: Buffer) => FirstChunkVerdict;

/** Takes every secret out of a chunk (error-body.ts `redactSecrets`). */
export type Redact = (chunk: Buffer) => Buffer;

/**
 * Relays a 2xx body chunk by chunk as it arrives; never buffers it. The
 * status line and headers go out with the first chunk, not before, so a body
 * that fails before its first byte — or whose first chunk is an error — can
 * still fail over cleanly. Chunks of nothing but SSE comments (keep-alives)
 * are held until a chunk with an event follows, and go out with it.
 */
export interface RelayJob {
  readonly res: ServerResponse;
  readonly status: number;
  readonly headers: HeaderMap;
  readonly body: UpstreamBody;
  readonly agent: AgentLink;
  readonly family: Family;
  /** `seat/model`, for the broken-stream message */
  readonly label: string;
  readonly check: FirstChunkCheck;
  /** sees every chunk that goes out, for the decision's token usage */
  readonly tap: UsageTap;
  /** applied to a first chunk relayed although it is an error (it may echo a key) */
  readonly redact: Redact;
  /** looks for an error event in every served chunk; null when the body is not a plain event stream */
  readonly scan: StreamErrorScan | null;
}

export function relaySuccess(job: RelayJob): Promise<RelayResult> {
  return new Promise((resolve) => job.body.pipeTo(new Relay(job, resolve)));
}

class Relay implements BodySink {
  private started = false;
  private settled = false;
  private passedBack: Classified | null = null;
  private waitingForDrain = false;
  /** null once an error event was seen (or when there is nothing to look for) */
  private scan: StreamErrorScan | null;
  private sawErrorEvent = false;
  /** the comment-only chunks received before the first event, joined; not yet sent */
  private held: Buffer | null = null;

  constructor(
    private readonly job: RelayJob,
    private readonly resolveWith: (result: RelayResult) => void,
  ) {
    this.scan = job.scan;
  }

  private resolve(result: RelayResult): void {
    if (this.settled) return;
    this.settled = true;
    this.resolveWith(result);
  }

  data(received: Buffer): void {
    if (this.settled) return;
    const { res } = this.job;
    let chunk = received;
    if (!this.started) {
      if (this.held !== null) chunk = Buffer.concat([this.held, chunk]);
      const verdict = this.job.check(chunk);
      if (verdict.kind === 'wait') {
        this.held = chunk;
        return;
      }
      this.held = null;
      const error = verdict.kind === 'error' ? verdict.classified : null;
      // an error the request caused (`none`) goes to the agent as the upstream sent it; any other fails over
      if (error !== null && error.verdict !== 'pass_back') {
        // The error is in this first chunk; nothing is waited for beyond it (a stream may stay open).
        // Settled first: undici may report the cancel at once, and that is not the attempt's failure.
        this.resolve({ kind: 'embedded_error', classified: error, body: chunk });
        this.job.body.cancel();
        return;
      }
      this.passedBack = error;
      // an answer that is an error already says nothing more by its later events
      if (error !== null) {
        chunk = this.withoutSecrets(chunk);
        this.scan = null;
      }
      res.writeHead(this.job.status, this.job.headers);
      this.started = true;
    }
    if (this.scan?.saw(chunk)) {
      this.sawErrorEvent = true;
      this.scan = null;
    }
    this.job.tap.push(chunk);
    // The agent reads slower than the upstream writes: stop reading upstream until it catches up.
    if (!res.write(chunk) && !this.waitingForDrain && !res.destroyed) {
      this.waitingForDrain = true;
      this.job.body.pause();
      res.once('drain', () => {
        this.waitingForDrain = false;
        this.job.body.resume();
      });
    }
  }

  /**
   * An error relayed as sent may quote the seat's key (some providers echo the
   * credential they got): taken out like in any error body, with a declared
   * length corrected by what the redaction changed.
   */
  private withoutSecrets(chunk: Buffer): Buffer {
    const clean = this.job.redact(chunk);
    const declared = this.job.headers['content-length'];
    if (clean.length !== chunk.length && typeof declared === 'string') {
      this.job.headers['content-length'] = String(Number(declared) + clean.length - chunk.length);
    }
    return clean;
  }

  end(): void {
    if (this.settled) return;
    if (this.job.agent.gone) return this.resolve(this.sawErrorEvent ? ERROR_EVENT : ABORTED);
    if (!this.started) this.job.res.writeHead(this.job.status, this.job.headers);
    // a stream that ended with nothing but comments: they go out as they came
    this.job.res.end(this.held ?? undefined);
    this.resolve(this.sawErrorEvent ? ERROR_EVENT : { kind: 'done', passedBack: this.passedBack });
  }

  /**
   * An agent that hangs up after an error event reached it still leaves the
   * evidence behind: SDKs close the stream as soon as they read one.
   */
  fail(err: Error): void {
    if (this.settled) return;
    const failure = classifyTransportError(err, this.job.agent.gone);
    if (failure === 'aborted') return this.resolve(this.sawErrorEvent ? ERROR_EVENT : ABORTED);
    if (!this.started) return this.resolve({ kind: 'failed_early', failure });
    endBroken(this.job.res, this.job.headers, this.job.family, `upstream ${this.job.label} broke off mid-response (${failure})`);
    this.resolve(this.sawErrorEvent ? ERROR_EVENT : { kind: 'broken', failure });
  }
}

const ERROR_EVENT: RelayResult = Object.freeze({ kind: 'error_event' });
const ABORTED: RelayResult = Object.freeze({ kind: 'aborted' });

/**
 * A stream gets the family's error event and ends; a body with a declared
 * length, or any non-stream body, is cut so the agent cannot mistake it for whole.
 */
function endBroken(res: ServerResponse, headers: HeaderMap, family: Family, message: string): void {
  const type = headers['content-type'];
  const isStream = typeof type === 'string' && type.includes('text/event-stream');
  if (isStream && headers['content-length'] === undefined && !res.destroyed) res.end(streamErrorEvent(family, message));
  else res.destroy();
}
