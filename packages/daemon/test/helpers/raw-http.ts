import { request as httpRequest } from 'node:http';

export interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/**
 * One request with exactly the given method, path and headers (fetch would
 * normalise the path and add headers of its own). `chunked` sends the body
 * without a content-length.
 */
export function rawRequest(
  base: string,
  opts: { method?: string; path: string; headers?: Record<string, string>; body?: string | Buffer; chunked?: boolean },
): Promise<RawAnswer> {
  const { hostname, port } = new URL(base);
  const body = opts.body ?? '';
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  if (opts.chunked !== true && body.length > 0) headers['content-length'] = String(Buffer.byteLength(body));
  return new Promise((resolve, reject) => {
    const req = httpRequest({ hostname, port, path: opts.path, method: opts.method ?? 'POST', headers, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
      res.on('error', reject);
    });
    req.on('error', reject);
    if (opts.chunked === true) {
      // several writes, so the body really travels in chunks
      const buf = Buffer.isBuffer(body) ? body : Buffer.from(body);
      const step = Math.max(1, Math.ceil(buf.length / 8));
      for (let at = 0; at < buf.length; at += step) req.write(buf.subarray(at, at + step));
      req.end();
    } else req.end(body);
  });
}
