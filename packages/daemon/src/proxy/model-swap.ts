import type { Span } from './top-level-scan.js';

/**
 * Replacing the body's `model` without re-serialising the body: the agent's
 * bytes go upstream unchanged except the value of the top-level "model" key
 * (found by `scanTopLevel`). This keeps large bodies cheap and guarantees
 * "nothing else in the body changed" — key order, spacing, number spellings
 * and escapes included.
 */

/**
 * A body as it goes upstream: the agent's bytes as they came, or the pieces
 * of a swapped body, written one after another with their total `length`.
 */
export type OutboundBody = Buffer | { readonly pieces: readonly Buffer[]; readonly length: number };

/**
 * Below this a swapped body is copied into one buffer: a small copy comes
 * from Node's buffer pool and goes out in one write. Above it the pieces go
 * out as they are — a fresh copy of a big body costs more (page faults on
 * new memory) than two extra writes, and is one more body held per request.
 */
const COPY_BELOW_BYTES = 16 * 1024;

/** The body with the bytes at `span` replaced by `value` (already JSON-encoded). */
export function spliceModel(body: Buffer, span: Span, value: Buffer): OutboundBody {
  const length = body.length - (span.end - span.start) + value.length;
  const pieces = [body.subarray(0, span.start), value, body.subarray(span.end)];
  return length < COPY_BELOW_BYTES ? Buffer.concat(pieces, length) : { pieces, length };
}

/** `model` encoded as the JSON string that replaces the old value. */
export function encodeModel(model: string): Buffer {
  return Buffer.from(JSON.stringify(model));
}
