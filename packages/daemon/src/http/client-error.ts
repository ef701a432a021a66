import type { Socket } from 'node:net';
import { errorBody, errorStatus, type DaemonErrorKind } from '../proxy/error-shapes.js';
import { familyOfPath } from '../proxy/family.js';

/**
 * Requests Node's HTTP parser rejects before fastify sees them (a huge
 * header, garbage on the wire) still get an answer in the family's shape when
 * the request line can be read, then the connection is closed.
 */
export function clientErrorResponse(err: Error & { code?: string; rawPacket?: unknown }, socket: Socket): void {
  if (err.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const kind: DaemonErrorKind = err.code === 'HPE_HEADER_OVERFLOW' ? 'header_too_large' : 'bad_request';
  const message = kind === 'header_too_large' ? 'request headers are too large' : 'malformed HTTP request';
  const body = errorBody(familyOf(err.rawPacket), kind, message);
  const status = errorStatus(kind);
  const reason = kind === 'header_too_large' ? 'Request Header Fields Too Large' : 'Bad Request';
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

function familyOf(raw: unknown): 'openai' | 'anthropic' {
  if (!Buffer.isBuffer(raw)) return 'openai';
  const line = /^POST (\/\S*)/.exec(raw.toString('latin1', 0, 512));
  return line?.[1] === undefined ? 'openai' : familyOfPath(line[1]);
}
