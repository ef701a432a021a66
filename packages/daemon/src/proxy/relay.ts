import type { ServerResponse } from 'node:http';
import type { Family } from '@routeplane/shared';
import { drained } from './agent-response.js';
import { streamErrorEvent } from './error-shapes.js';
import type { HeaderMap } from './headers.js';
import { classifyTransportError, type UpstreamBody } from './upstream-client.js';

export type RelayResult =
  | { kind: 'done' }
  /** the body failed before any byte reached the agent: the request may still fail over */
  | { kind: 'failed_early'; failure: 'timeout' | 'network' }
  /** the body failed after bytes reached the agent: the stream was ended with an error event, or cut */
  | { kind: 'broken'; failure: 'timeout' | 'network' }
  | { kind: 'aborted' };

/**
 * Relays a 2xx body chunk by chunk as it arrives; never buffers it. The
 * status line and headers go out with the first chunk, not before, so a body
 * that fails before its first byte can still fail over cleanly.
 */
export async function relaySuccess(
  res: ServerResponse,
  status: number,
  headers: HeaderMap,
  body: UpstreamBody,
  signal: AbortSignal,
  family: Family,
  label: string,
): Promise<RelayResult> {
  let started = false;
  try {
    for await (const chunk of body as AsyncIterable<Buffer>) {
      if (!started) {
        res.writeHead(status, headers);
        started = true;
      }
      if (!res.write(chunk)) await drained(res);
    }
  } catch (err) {
    const failure = classifyTransportError(err, signal);
    if (failure === 'aborted') return { kind: 'aborted' };
    if (!started) return { kind: 'failed_early', failure };
    endBroken(res, headers, family, `upstream ${label} broke off mid-response (${failure})`);
    return { kind: 'broken', failure };
  }
  if (signal.aborted) return { kind: 'aborted' };
  if (!started) res.writeHead(status, headers);
  res.end();
  return { kind: 'done' };
}

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
