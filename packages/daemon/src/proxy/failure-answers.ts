import type { ServerResponse } from 'node:http';
import type { Attempt, Family } from '@routeplane/shared';
import { routeplaneHeaders, sendJsonError, sendWhole } from './agent-response.js';
import { redactSecrets, type ErrorBodyRead } from './error-body.js';
import { errorBody } from './error-shapes.js';
import type { HeaderMap } from './headers.js';

/**
 * What the agent gets when an upstream said no: the upstream's own error
 * response (passed back at once for a 4xx that is the request's fault, or the
 * last one kept when every target failed), else a daemon-made 502/504.
 */

/** An upstream error response, read whole, ready to hand to the agent. */
export interface KeptError {
  status: number;
  headers: HeaderMap;
  body: Buffer;
  /** `seat/model` it came from */
  label: string;
}

export function keepErrorResponse(
  family: Family,
  status: number,
  headers: HeaderMap,
  read: Exclude<ErrorBodyRead, { kind: 'aborted' }>,
  label: string,
  secrets: readonly Buffer[],
): KeptError {
  // the body may change length (redaction) and is sent whole: the length is recomputed
  delete headers['content-length'];
  if (read.kind === 'too_large') {
    headers['content-type'] = 'application/json';
    delete headers['content-encoding'];
    const kind = status >= 500 ? 'bad_gateway' : 'bad_request';
    return {
      status,
      headers,
      label,
      body: Buffer.from(errorBody(family, kind, `upstream ${label} answered ${status} with an error body too large to relay`)),
    };
  }
  const encoded = headers['content-encoding'] !== undefined && headers['content-encoding'] !== 'identity';
  return { status, headers, label, body: encoded ? read.body : redactSecrets(read.body, secrets) };
}

export function sendKeptError(res: ServerResponse, requestId: string, attempts: number, kept: KeptError, decision: string | null): void {
  sendWhole(res, kept.status, Object.assign(kept.headers, routeplaneHeaders(requestId, attempts, kept.label, decision)), kept.body);
}

/**
 * No upstream answered at all (timeouts, refused or reset connections): 504
 * when the last attempt timed out, else 502, naming each target and outcome.
 * Returns the status sent.
 */
export function sendNoUpstreamAnswer(
  res: ServerResponse,
  family: Family,
  requestId: string,
  attempts: readonly Attempt[],
  decision: string | null,
): number {
  const timedOut = attempts[attempts.length - 1]?.outcome === 'timeout';
  const tried = attempts.map((a) => `${a.seat}/${a.model} (${a.outcome})`).join(', ');
  const message = attempts.length === 0 ? 'no target could be tried' : `every target failed: ${tried}`;
  const kind = timedOut ? 'gateway_timeout' : 'bad_gateway';
  const status = timedOut ? 504 : 502;
  sendJsonError(res, status, routeplaneHeaders(requestId, attempts.length, null, decision), errorBody(family, kind, message));
  return status;
}
