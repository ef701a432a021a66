import type { AgentLink } from './agent-link.js';
import type { BodySink, UpstreamBody } from './upstream-exchange.js';

/**
 * Upstream error bodies (402, 429, 4xx, 5xx) are read whole — they are small
 * and the proxy may have to hand the last one back after trying other targets.
 * A cap keeps a hostile upstream from making us hold megabytes per request.
 */
export const ERROR_BODY_CAP = 256 * 1024;

export type ErrorBodyRead =
  | { kind: 'read'; body: Buffer }
  /** the body was over the cap; what was read is dropped and the connection destroyed */
  | { kind: 'too_large' }
  /** the body broke off (timeout, reset); the status still stands */
  | { kind: 'broken'; body: Buffer }
  | { kind: 'aborted' };

export function readErrorBody(body: UpstreamBody, agent: AgentLink): Promise<ErrorBodyRead> {
  return new Promise((resolve) => body.pipeTo(new ErrorBodyReader(body, agent, resolve)));
}

class ErrorBodyReader implements BodySink {
  private readonly chunks: Buffer[] = [];
  private size = 0;
  private settled = false;

  constructor(
    private readonly body: UpstreamBody,
    private readonly agent: AgentLink,
    private readonly resolve: (read: ErrorBodyRead) => void,
  ) {}

  data(chunk: Buffer): void {
    if (this.settled) return;
    this.size += chunk.length;
    if (this.size > ERROR_BODY_CAP) {
      this.settle({ kind: 'too_large' });
      this.chunks.length = 0;
      this.body.cancel(); // destroys the connection; its error then finds this reader settled
      return;
    }
    this.chunks.push(chunk);
  }

  end(): void {
    if (this.settled) return;
    this.settle({ kind: 'read', body: Buffer.concat(this.chunks, this.size) });
  }

  fail(): void {
    if (this.settled) return;
    this.settle(this.agent.gone ? { kind: 'aborted' } : { kind: 'broken', body: Buffer.concat(this.chunks, this.size) });
  }

  private settle(read: ErrorBodyRead): void {
    this.settled = true;
    this.resolve(read);
  }
}

const REDACTED = Buffer.from('[redacted]');

/**
 * Some providers echo the credential they were sent in an auth error. The
 * agent must never see a seat key, so any secret in an uncompressed error
 * body is replaced. (A compressed body is relayed as it is: we do not inflate
 * what we cannot change without altering its encoding.)
 */
export function redactSecrets(body: Buffer, secrets: readonly Buffer[]): Buffer {
  let out = body;
  for (const needle of secrets) {
    let at = out.indexOf(needle);
    if (at === -1) continue;
    const parts: Buffer[] = [];
    let from = 0;
    while (at !== -1) {
      parts.push(out.subarray(from, at), REDACTED);
      from = at + needle.length;
      at = out.indexOf(needle, from);
    }
    parts.push(out.subarray(from));
    out = Buffer.concat(parts);
  }
  return out;
}
