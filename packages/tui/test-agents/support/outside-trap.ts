/**
 * Keeps the agents on loopback and proves they stayed there: every agent runs
 * with this server as its HTTP(S) proxy for everything but 127.0.0.1, so a
 * connection it tries beyond the machine arrives here instead, is refused,
 * and is recorded (host:port only) for the test to assert there were none.
 */
import { createServer, type Server } from 'node:http';
import type { Socket } from 'node:net';

export interface OutsideTrap {
  /** host:port (CONNECT) or URL (plain HTTP) of every attempt to leave loopback */
  readonly attempts: string[];
  /** the proxy variables that route an agent's outside traffic here */
  readonly env: Record<string, string>;
  close(): Promise<void>;
}

export async function startOutsideTrap(): Promise<OutsideTrap> {
  const attempts: string[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((req, res) => {
    attempts.push(`${req.method} ${req.url}`);
    res.writeHead(403).end();
  });
  server.on('connect', (req, socket: Socket) => {
    attempts.push(`CONNECT ${req.url}`);
    socket.end('HTTP/1.1 403 Forbidden\r\n\r\n');
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the outside trap has no port');
  const proxy = `http://127.0.0.1:${address.port}`;
  const direct = '127.0.0.1,localhost';
  return {
    attempts,
    env: {
      HTTPS_PROXY: proxy,
      https_proxy: proxy,
      HTTP_PROXY: proxy,
      http_proxy: proxy,
      ALL_PROXY: proxy,
      NO_PROXY: direct,
      no_proxy: direct,
    },
    close() {
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
