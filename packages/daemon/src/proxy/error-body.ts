import type { UpstreamBody } from './upstream-client.js';

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

export async function readErrorBody(body: UpstreamBody, signal: AbortSignal): Promise<ErrorBodyRead> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > ERROR_BODY_CAP) {
        body.destroy();
        return { kind: 'too_large' };
      }
      chunks.push(chunk);
    }
  } catch {
    if (signal.aborted) return { kind: 'aborted' };
    return { kind: 'broken', body: Buffer.concat(chunks, size) };
  }
  return { kind: 'read', body: Buffer.concat(chunks, size) };
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
