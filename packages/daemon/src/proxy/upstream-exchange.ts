import type { Dispatcher } from 'undici';
import type { Cancellable } from './agent-link.js';

export type UpstreamHeaders = Record<string, string | string[] | undefined>;

/** Where an upstream body goes, as it arrives. Exactly one of `end` or `fail` ends it. */
export interface BodySink {
  data(chunk: Buffer): void;
  end(): void;
  fail(err: Error): void;
}

/** An upstream response body, handed chunk by chunk to one sink; no stream, no buffering beyond the first read. */
export interface UpstreamBody extends Cancellable {
  /** every chunk so far and from now on, then the end or the failure, goes to `sink` */
  pipeTo(sink: BodySink): void;
  /** stop reading from the upstream socket (backpressure from the agent) */
  pause(): void;
  resume(): void;
}

/** The response head, or the error that came instead of one. */
export type ExchangeHead =
  | { kind: 'response'; status: number; headers: UpstreamHeaders; body: UpstreamBody }
  | { kind: 'failed'; error: Error };

/** Why we stopped an upstream request ourselves (the agent left, or an error body grew past its cap). */
const CANCELLED = new Error('upstream request cancelled by routeplane');

/**
 * One upstream request as an undici dispatch handler (undici 7's
 * controller API). Cheaper than `Agent.request` — no promise per step, no
 * Readable body, no AbortSignal — and it keeps the proxy's needs explicit:
 * the head resolves `head`; body chunks go straight to the sink attached
 * with `pipeTo` (those that arrive before it, in the same socket read as the
 * head, wait in `early`); `pause`/`resume` apply backpressure through the
 * controller; `cancel` aborts the request, which destroys its connection.
 */
export class UpstreamExchange implements Dispatcher.DispatchHandler, UpstreamBody {
  readonly head: Promise<ExchangeHead>;
  private settleHead!: (head: ExchangeHead) => void;
  private headSettled = false;
  private controller: Dispatcher.DispatchController | null = null;
  private cancelled = false;
  private sink: BodySink | null = null;
  private early: Buffer[] | null = null;
  /** how the body ended before a sink was attached */
  private earlyEnd: { error: Error | null } | null = null;

  constructor() {
    this.head = new Promise((resolve) => {
      this.settleHead = resolve;
    });
  }

  // ── undici's side ──────────────────────────────────────────────────────

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    // cancelled while queued for a connection: undici can only abort once the request has one
    if (this.cancelled) controller.abort(CANCELLED);
  }

  onResponseStart(_controller: Dispatcher.DispatchController, status: number, headers: UpstreamHeaders): void {
    if (status < 200) return; // 1xx informational: the real head follows
    this.headSettled = true;
    this.settleHead({ kind: 'response', status, headers, body: this });
  }

  onResponseData(_controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.sink !== null) this.sink.data(chunk);
    else (this.early ??= []).push(chunk);
  }

  onResponseEnd(): void {
    if (this.sink !== null) this.sink.end();
    else this.earlyEnd = { error: null };
  }

  /** `controller` is missing when the request failed before it got a connection. */
  onResponseError(_controller: Dispatcher.DispatchController | undefined, error: Error): void {
    if (!this.headSettled) {
      this.headSettled = true;
      this.settleHead({ kind: 'failed', error });
    } else if (this.sink !== null) this.sink.fail(error);
    else this.earlyEnd = { error };
  }

  // ── the proxy's side ───────────────────────────────────────────────────

  pipeTo(sink: BodySink): void {
    this.sink = sink;
    const early = this.early;
    this.early = null;
    if (early !== null) for (const chunk of early) sink.data(chunk);
    const ended = this.earlyEnd;
    if (ended === null) return;
    if (ended.error === null) sink.end();
    else sink.fail(ended.error);
  }

  pause(): void {
    this.controller?.pause();
  }

  resume(): void {
    this.controller?.resume();
  }

  /** Aborts the request; undici reports it through `onResponseError` (with CANCELLED) unless it already ended. */
  cancel(): void {
    if (this.cancelled) return;
    this.cancelled = true;
    this.controller?.abort(CANCELLED);
  }
}
