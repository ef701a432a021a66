/**
 * Upstream misbehaviours the ready-made `respond` behaviours do not have:
 * raw bytes past Node's own checks, and answers that stop half-way with the
 * connection left open (the daemon must close it itself).
 */
import type { Behaviour } from './fake-upstream.js';

/**
 * Writes a raw HTTP/1.1 response straight onto the socket, bypassing Node's
 * ServerResponse (which would fix up a lying content-length). The socket is
 * left open unless `end` is set, as a misbehaving keep-alive server would.
 */
export function rawResponse(head: string, body: string, opts: { end?: boolean } = {}): Behaviour {
  return (_req, res) => {
    const socket = res.socket;
    if (socket === null) return;
    const bytes = `${head.replace(/\n/g, '\r\n')}\r\n\r\n${body}`;
    if (opts.end === true) socket.end(bytes);
    else socket.write(bytes);
  };
}

/** 200 headers plus one first chunk, then silence: the connection stays open (an idle-timeout case). */
export function stallAfterFirstChunk(
  firstChunk: string,
  headers: Record<string, string> = { 'content-type': 'text/event-stream' },
): Behaviour {
  return (_req, res) => {
    res.writeHead(200, headers);
    res.write(firstChunk);
  };
}

/** Response headers flushed, then no body byte ever. */
export function headersThenSilence(contentType = 'text/event-stream'): Behaviour {
  return (_req, res) => {
    res.writeHead(200, { 'content-type': contentType });
    res.flushHeaders();
  };
}

/** An error status whose body arrives slowly: headers now, the body never (until the socket dies). */
export function errorHeadersThenSilence(status: number): Behaviour {
  return (_req, res) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.write('{"error":');
  };
}
