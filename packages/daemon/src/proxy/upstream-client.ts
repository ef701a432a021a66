import { Agent } from 'undici';
import type { TimeoutsConfig } from '@routeplane/shared';
import type { AgentLink } from './agent-link.js';
import type { HeaderMap } from './headers.js';
import type { OutboundBody } from './model-swap.js';
import { UpstreamExchange, type UpstreamBody, type UpstreamHeaders } from './upstream-exchange.js';

/**
 * The one upstream client: an undici Agent (a keep-alive pool per origin),
 * built once at start. Its timeouts are the config's: `connect_ms` to open a
 * connection, `first_byte_ms` until the response headers are complete,
 * `idle_ms` between two chunks of any body. On a timeout undici destroys the
 * connection at once.
 */
export interface UpstreamRequest {
  origin: string;
  path: string;
  headers: HeaderMap;
  body: OutboundBody;
}

/** Failure before any response headers arrived. */
export type TransportFailure = 'timeout' | 'network' | 'aborted';

export type UpstreamResult =
  | { kind: 'response'; status: number; headers: UpstreamHeaders; body: UpstreamBody }
  | { kind: 'failed'; failure: TransportFailure };

export class UpstreamClient {
  private readonly pool: Agent;

  constructor(private readonly timeouts: TimeoutsConfig) {
    this.pool = new Agent({
      connect: { timeout: timeouts.connect_ms },
      headersTimeout: timeouts.first_byte_ms,
      bodyTimeout: timeouts.idle_ms,
    });
  }

  /** Sends the request; resolves with the response head (its body still to come) or why none came. */
  async send(req: UpstreamRequest, agent: AgentLink): Promise<UpstreamResult> {
    const exchange = new UpstreamExchange();
    agent.track(exchange);
    const { origin, path, headers, body } = req;
    if (Buffer.isBuffer(body)) this.pool.dispatch({ origin, path, method: 'POST', headers, body }, exchange);
    else {
      // Pieces are an iterable body to undici, which needs the length up front or it sends them chunked.
      // Its docs list iterable bodies (Dispatcher.md, DispatchOptions.body); its types leave them out.
      const pieces = body.pieces as unknown as Buffer;
      this.pool.dispatch(
        { origin, path, method: 'POST', headers: { ...headers, 'content-length': String(body.length) }, body: pieces },
        exchange,
      );
    }
    const head = await exchange.head;
    if (head.kind === 'failed') return { kind: 'failed', failure: classifyTransportError(head.error, agent.gone) };
    return head;
  }

  sameTimeouts(other: TimeoutsConfig): boolean {
    const t = this.timeouts;
    return t.connect_ms === other.connect_ms && t.first_byte_ms === other.first_byte_ms && t.idle_ms === other.idle_ms;
  }

  /** Closes once the requests in flight are done (a reload retired this pool). */
  drain(): Promise<void> {
    return this.pool.close().catch(() => {});
  }

  close(): Promise<void> {
    return this.pool.destroy();
  }
}

const TIMEOUT_CODES = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'ETIMEDOUT']);

/** What an undici error means for the attempt: our agent left, the upstream was too slow, or anything else on the wire. */
export function classifyTransportError(err: unknown, agentGone: boolean): TransportFailure {
  if (agentGone) return 'aborted';
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && TIMEOUT_CODES.has(code) ? 'timeout' : 'network';
}
