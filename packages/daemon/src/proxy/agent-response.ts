import type { ServerResponse } from 'node:http';
import { ascii } from '../policy/decision-header.js';
import type { HeaderMap } from './headers.js';

/**
 * Writing to the agent. Proxied requests are answered on the raw Node
 * response (the fastify reply is hijacked) so a streamed body goes out chunk
 * by chunk with nothing in between.
 */

/** The routeplane headers every response to a proxied `POST /v1/*` carries; the decision once a route resolved. */
export function routeplaneHeaders(requestId: string, attempts: number, target: string | null, decision: string | null = null): HeaderMap {
  const headers: HeaderMap = {
    'x-routeplane-request-id': requestId,
    'x-routeplane-attempts': String(attempts),
  };
  // a model id may hold any character; a header value may not (one above U+00FF throws)
  if (target !== null) headers['x-routeplane-target'] = ascii(target);
  if (decision !== null) headers['x-routeplane-decision'] = decision;
  return headers;
}

const JSON_TYPE = { 'content-type': 'application/json' };

/** A whole body at once; `headers` may be the upstream's, `content-length` is recomputed. */
export function sendWhole(res: ServerResponse, status: number, headers: HeaderMap, body: Buffer | string): void {
  if (res.destroyed || res.headersSent) return;
  headers['content-length'] = String(Buffer.byteLength(body));
  res.writeHead(status, headers);
  res.end(body);
}

/** A daemon-made JSON error (the body from `errorBody`). */
export function sendJsonError(res: ServerResponse, status: number, routeplane: HeaderMap, body: string): void {
  sendWhole(res, status, Object.assign(routeplane, JSON_TYPE), body);
}
