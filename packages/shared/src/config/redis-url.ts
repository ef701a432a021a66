/**
 * `influence.shared.redis_url` read once: `redis://`
 * or `rediss://` (TLS), a host, a port (6379 when absent) and a database
 * number (the path, 0 when absent). A user name may be given; a password may
 * not — it lives in the variable `password_env` names, so the URL can be
 * shown, logged and sent in `hello` as it is.
 */
export interface RedisEndpoint {
  tls: boolean;
  host: string;
  port: number;
  db: number;
  username: string | null;
}

export type RedisUrlReading = { ok: true; endpoint: RedisEndpoint } | { ok: false; message: string };

const DEFAULT_PORT = 6379;

export function readRedisUrl(text: string): RedisUrlReading {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    // the text itself is not repeated: it may hold a password
    return { ok: false, message: 'expected a URL such as redis://127.0.0.1:6379/0' };
  }
  if (url.password !== '') {
    return { ok: false, message: 'holds a password: put it in an environment variable and name it in influence.shared.password_env' };
  }
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:') {
    return { ok: false, message: `expected redis:// or rediss://, got ${url.protocol}//` };
  }
  if (url.hostname === '') return { ok: false, message: 'names no host' };
  if (url.search !== '' || url.hash !== '') return { ok: false, message: 'takes no query or fragment (host, port and database only)' };
  const path = url.pathname.replace(/^\//, '');
  if (path !== '' && !/^\d{1,5}$/.test(path)) return { ok: false, message: `expected a database number as the path, got /${path}` };
  return {
    ok: true,
    endpoint: {
      tls: url.protocol === 'rediss:',
      host: url.hostname.replace(/^\[|\]$/g, ''),
      port: url.port === '' ? DEFAULT_PORT : Number(url.port),
      db: path === '' ? 0 : Number(path),
      username: url.username === '' ? null : decodeURIComponent(url.username),
    },
  };
}
