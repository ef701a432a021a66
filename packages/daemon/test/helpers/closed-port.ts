import { createServer } from 'node:net';

/**
 * Ports below every common ephemeral range (Linux starts at 32768, macOS and
 * Windows at 49152). Every server of the tests listens on port 0, which the
 * system picks from the ephemeral range: a port from here that was free a
 * moment ago cannot be taken by a fake upstream starting in parallel, as a
 * released ephemeral port can.
 */
const FIRST = 20_000;
const LAST = 32_000;

/** A base_url nothing listens on, for connection-refused tests. */
export async function closedPortUrl(): Promise<string> {
  for (let tries = 0; tries < 50; tries++) {
    const port = FIRST + Math.floor(Math.random() * (LAST - FIRST));
    if (await isFree(port)) return `http://127.0.0.1:${port}`;
  }
  throw new Error(`no free port between ${FIRST} and ${LAST}`);
}

function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}
