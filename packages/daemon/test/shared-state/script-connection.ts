/**
 * The store's own Connection to a test `redis-server`, for tests that run the Lua scripts
 * straight against it; resolves once both its clients are ready.
 */
import { Connection } from '../../src/store/connection.js';
import type { RedisServer } from './redis-server.js';

export function connectScripts(redis: RedisServer): Promise<Connection> {
  return new Promise((resolve) => {
    const conn: Connection = new Connection({ tls: false, host: '127.0.0.1', port: redis.port, db: 0, username: null }, null, {
      ready: () => {
        if (conn.ready) resolve(conn);
      },
      lost: () => {},
    });
    conn.open();
  });
}
