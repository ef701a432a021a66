import { createServer, type Socket } from 'node:net';
import { resolve } from 'node:path';
import type { ControlApi } from './api.js';
import { ControlConnection } from './connection.js';
import { closeServer, listenPrivately, removePlacedSocket } from './socket-file.js';
import { DEFAULT_SUBSCRIBER_LIMITS, type SubscriberLimits } from './subscriber.js';

export interface ControlServer {
  readonly path: string;
  /** stops accepting, ends every connection (subscribers included) at once, removes the socket file */
  close(): Promise<void>;
}

export interface ControlServerOptions {
  subscriberLimits?: SubscriberLimits;
  /** until this settles, connections are accepted but their requests wait (the daemon is still opening its HTTP port) */
  ready?: Promise<void>;
}

/** sun_path holds 108 bytes on Linux, one of them the terminating NUL. */
const MAX_SOCKET_PATH_BYTES = 107;
/** what the private bind path adds to the directory: `/.XXXXXX/s` */
const PRIVATE_BIND_SUFFIX_BYTES = 10;

/**
 * The control socket: NDJSON requests and events over a unix socket that
 * only its owner can reach (directory 0700 when we create it, socket 0600).
 */
export async function startControlServer(path: string, api: ControlApi, options: ControlServerOptions = {}): Promise<ControlServer> {
  const socketPath = resolve(path);
  checkPathLength(socketPath);
  const limits = options.subscriberLimits ?? DEFAULT_SUBSCRIBER_LIMITS;
  const connections = new Set<ControlConnection>();
  let open = options.ready === undefined;
  const waiting = new Set<Socket>();
  void options.ready?.then(() => {
    open = true;
    for (const socket of waiting) socket.resume();
    waiting.clear();
  });
  // allowHalfOpen: a client may send its requests and end its side, and still get the replies.
  const server = createServer({ allowHalfOpen: true }, (socket) => {
    const connection = new ControlConnection(socket, api, limits);
    connections.add(connection);
    socket.once('close', () => {
      connections.delete(connection);
      waiting.delete(socket);
    });
    if (!open) {
      // read nothing until the daemon is ready: the bytes wait in the kernel, in order
      socket.pause();
      waiting.add(socket);
    }
  });

  let placed: Awaited<ReturnType<typeof listenPrivately>>;
  try {
    placed = await listenPrivately(server, socketPath);
  } catch (err) {
    const message = (err as Error).message;
    throw new Error(message.includes(socketPath) ? message : `cannot create control socket ${socketPath}: ${message}`);
  }
  // After listening, server errors are about single accepts; a connection's own errors are its business.
  server.on('error', () => {});

  let closing: Promise<void> | null = null;
  return {
    path: socketPath,
    close() {
      closing ??= (async () => {
        const stopped = closeServer(server);
        for (const connection of connections) connection.destroy();
        await stopped;
        await removePlacedSocket(placed);
      })();
      return closing;
    },
  };
}

function checkPathLength(socketPath: string): void {
  const bytes = Buffer.byteLength(socketPath);
  const dirBytes = Buffer.byteLength(resolve(socketPath, '..'));
  if (bytes > MAX_SOCKET_PATH_BYTES || dirBytes + PRIVATE_BIND_SUFFIX_BYTES > MAX_SOCKET_PATH_BYTES) {
    throw new Error(
      `control socket path ${socketPath} is too long for a unix socket (keep it under ${MAX_SOCKET_PATH_BYTES - PRIVATE_BIND_SUFFIX_BYTES} bytes)`,
    );
  }
}
