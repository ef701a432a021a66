import { createConnection, type Server } from 'node:net';
import { chmod, lstat, mkdir, mkdtemp, rename, rm, unlink } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';

/**
 * Creates the socket's directory 0700 when it is missing. An existing
 * directory is left as it is: an explicit `control.socket` may live in a
 * shared place (only a missing one is created 0700), and the socket's own
 * 0600 mode is what keeps others out.
 */
export async function ensureSocketDir(dir: string): Promise<void> {
  const firstCreated = await mkdir(dir, { recursive: true, mode: 0o700 });
  if (firstCreated === undefined) return;
  // mkdir's mode passes through the umask; set it exactly on every level we made.
  const levels = relative(firstCreated, dir).split(sep).filter(Boolean);
  let current = firstCreated;
  await chmod(current, 0o700);
  for (const level of levels) {
    current = join(current, level);
    await chmod(current, 0o700);
  }
}

export type SocketProbe = 'absent' | 'stale' | 'live' | { error: string };

/**
 * Is anything answering on `path`? A connect that is refused means the file
 * was left by a dead daemon; a connect that hangs is treated as alive, since
 * replacing the socket of a busy daemon would orphan it.
 */
export function probeSocket(path: string, timeoutMs = 1000): Promise<SocketProbe> {
  return new Promise((resolve) => {
    const socket = createConnection(path);
    const timer = setTimeout(() => finish('live'), timeoutMs);
    function finish(result: SocketProbe): void {
      clearTimeout(timer);
      socket.destroy();
      resolve(result);
    }
    socket.once('connect', () => finish('live'));
    socket.once('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'ECONNREFUSED') finish('stale');
      else if (err.code === 'ENOENT') finish('absent');
      else finish({ error: err.code ?? err.message });
    });
  });
}

/** Identifies our socket file, so close() never removes a successor's. */
export interface PlacedSocket {
  path: string;
  ino: number;
}

/**
 * Binds `server` at `path` with no moment in which the socket is reachable
 * by anyone else: it is bound inside a fresh 0700 directory next to `path`,
 * chmod 0600, then renamed into place. (Tightening the umask around listen()
 * would work too, but the umask is process-wide and would leak into any file
 * another part of the process creates at that instant.)
 *
 * An existing file at `path` is replaced only when it is a socket nobody
 * answers on; a live daemon there makes this refuse with a one-line error.
 */
export async function listenPrivately(server: Server, path: string): Promise<PlacedSocket> {
  const dir = dirname(path);
  await ensureSocketDir(dir);
  await refuseIfOccupied(path);

  // A short name keeps the temporary path inside the ~107-byte sun_path limit
  // whenever the final one fits.
  const privateDir = await mkdtemp(join(dir, '.t'));
  const tempPath = join(privateDir, 's');
  try {
    await chmod(privateDir, 0o700);
    await listen(server, tempPath);
    await chmod(tempPath, 0o600);
    // Someone may have started on the path while we were binding.
    await refuseIfOccupied(path);
    await rename(tempPath, path);
  } catch (err) {
    await closeServer(server);
    throw err;
  } finally {
    await rm(privateDir, { recursive: true, force: true });
  }
  const stats = await lstat(path);
  return { path, ino: stats.ino };
}

async function refuseIfOccupied(path: string): Promise<void> {
  let isSocket: boolean;
  try {
    isSocket = (await lstat(path)).isSocket();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw new Error(`cannot use control socket ${path}: ${(err as Error).message}`);
  }
  if (!isSocket) throw new Error(`cannot use control socket ${path}: a file that is not a socket is in the way`);
  const probe = await probeSocket(path);
  if (probe === 'live') throw new Error(`another routeplane daemon is already listening on ${path}`);
  if (typeof probe === 'object') throw new Error(`cannot use control socket ${path}: ${probe.error}`);
  // 'stale' (left by a dead daemon) or 'absent': the rename replaces it atomically.
}

function listen(server: Server, path: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (err: Error) => reject(err);
    server.once('error', onError);
    server.listen(path, () => {
      server.off('error', onError);
      resolve();
    });
  });
}

export function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    if (!server.listening) return resolve();
    server.close(() => resolve());
  });
}

/** Removes the socket file if it is still the one we placed. */
export async function removePlacedSocket(placed: PlacedSocket): Promise<void> {
  try {
    const stats = await lstat(placed.path);
    if (stats.ino === placed.ino) await unlink(placed.path);
  } catch {
    // already gone
  }
}
