import { Agent, type Dispatcher } from 'undici';
import type { TimeoutsConfig } from '@routeplane/shared';
import type { HeaderMap } from './headers.js';

/**
 * The one upstream client: an undici Agent (a keep-alive pool per origin),
 * built once at start. Its timeouts are the spec's: `connect_ms` to open a
 * connection, `first_byte_ms` until the response headers are complete,
 * `idle_ms` between two chunks of any body. On a timeout undici destroys the
 * connection at once.
 */
export interface UpstreamRequest {
  origin: string;
  path: string;
  headers: HeaderMap;
  body: Buffer;
  /** aborts when the agent hangs up; undici then cancels the upstream request */
  signal: AbortSignal;
}

export type UpstreamBody = Dispatcher.ResponseData['body'];

/** Failure before any response headers arrived. */
export type TransportFailure = 'timeout' | 'network' | 'aborted';

export type UpstreamResult =
  | { kind: 'response'; status: number; headers: Record<string, string | string[] | undefined>; body: UpstreamBody }
  | { kind: 'failed'; failure: TransportFailure };

export class UpstreamClient {
  private readonly agent: Agent;

  constructor(timeouts: TimeoutsConfig) {
    this.agent = new Agent({
      connect: { timeout: timeouts.connect_ms },
      headersTimeout: timeouts.first_byte_ms,
      bodyTimeout: timeouts.idle_ms,
    });
  }

  async send(req: UpstreamRequest): Promise<UpstreamResult> {
    try {
      const res = await this.agent.request({
        origin: req.origin,
        path: req.path,
        method: 'POST',
        headers: req.headers,
        body: req.body,
        signal: req.signal,
      });
      return { kind: 'response', status: res.statusCode, headers: res.headers, body: res.body };
    } catch (err) {
      return { kind: 'failed', failure: classifyTransportError(err, req.signal) };
    }
  }

  close(): Promise<void> {
    return this.agent.destroy();
  }
}

const TIMEOUT_CODES = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'ETIMEDOUT']);

/** What an undici error means for the attempt: our agent left, the upstream was too slow, or anything else on the wire. */
export function classifyTransportError(err: unknown, signal: AbortSignal): TransportFailure {
  if (signal.aborted) return 'aborted';
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && TIMEOUT_CODES.has(code) ? 'timeout' : 'network';
}
