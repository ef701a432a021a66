// The limit: the least a Node process can do to proxy — node:http in, bodies
// piped both ways, hop-by-hop headers dropped. No routing, no JSON, no events.
// Whatever Routeplane costs is measured against this.
//
// BENCH_CLIENT picks the upstream client (default `http`, the limit in RESULTS.md):
//   http             node:http with a keep-alive agent
//   http-buffered    the same, but the agent's body is read whole before it goes up (as the daemon must hold it)
//   undici-request   undici Agent.request (promise + Readable body), as the daemon uses now
//   undici-dispatch  undici Agent.dispatch with a handler (no stream, no promise)
import http from 'node:http';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { answerUsage } from './child-usage.mjs';

const upstream = new URL(process.env.BENCH_UPSTREAM ?? '');
const clientKind = process.env.BENCH_CLIENT ?? 'http';
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

function endToEnd(headers) {
  const out = {};
  for (const name in headers) if (!HOP_BY_HOP.has(name)) out[name] = headers[name];
  return out;
}

function viaNodeHttp({ buffered = false } = {}) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity, maxFreeSockets: 1024 });
  const handler = (req, res) => {
    const headers = endToEnd(req.headers);
    headers.host = upstream.host;
    const out = http.request(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers, agent },
      (upRes) => {
        res.writeHead(upRes.statusCode ?? 502, endToEnd(upRes.headers));
        upRes.pipe(res);
      },
    );
    out.on('error', () => {
      if (!res.headersSent) res.writeHead(502).end();
      else res.destroy();
    });
    res.on('close', () => {
      if (!res.writableFinished) out.destroy();
    });
    if (buffered) readBody(req, (body) => out.end(body));
    else req.pipe(out);
  };
  return { handler, close: () => agent.destroy() };
}

// undici is the daemon's dependency; borrow it from there rather than add one.
const root = join(fileURLToPath(new URL('.', import.meta.url)), '..', '..');
const loadUndici = () => createRequire(join(root, 'packages/daemon/package.json'))('undici');

/** Both undici variants buffer the agent's body first, as the daemon must (it reads `model`). */
function readBody(req, then) {
  const parts = [];
  req.on('data', (c) => parts.push(c));
  req.on('end', () => then(parts.length === 1 ? parts[0] : Buffer.concat(parts)));
}

function upstreamHeaders(req) {
  const headers = endToEnd(req.headers);
  delete headers.host;
  delete headers['content-length'];
  return headers;
}

function viaUndiciRequest() {
  const { Agent } = loadUndici();
  const agent = new Agent();
  const handler = (req, res) => {
    readBody(req, async (body) => {
      const ac = new AbortController();
      res.once('close', () => !res.writableFinished && ac.abort());
      try {
        const up = await agent.request({
          origin: upstream.origin,
          path: req.url,
          method: req.method,
          headers: upstreamHeaders(req),
          body,
          signal: ac.signal,
        });
        res.writeHead(up.statusCode, endToEnd(up.headers));
        for await (const chunk of up.body) if (!res.write(chunk)) await new Promise((r) => res.once('drain', r));
        res.end();
      } catch {
        if (!res.headersSent) res.writeHead(502).end();
        else res.destroy();
      }
    });
  };
  return { handler, close: () => agent.destroy() };
}

function viaUndiciDispatch() {
  const { Agent } = loadUndici();
  const agent = new Agent();
  const handler = (req, res) => {
    readBody(req, (body) => {
      let controller = null;
      res.once('close', () => !res.writableFinished && controller?.abort(new Error('agent left')));
      res.on('drain', () => controller?.resume());
      agent.dispatch(
        { origin: upstream.origin, path: req.url, method: req.method, headers: upstreamHeaders(req), body },
        {
          onRequestStart(c) {
            controller = c;
          },
          onResponseStart(_c, status, headers) {
            res.writeHead(status, endToEnd(headers));
          },
          onResponseData(c, chunk) {
            if (!res.write(chunk)) c.pause();
          },
          onResponseEnd() {
            res.end();
          },
          onResponseError() {
            if (!res.headersSent) res.writeHead(502).end();
            else res.destroy();
          },
        },
      );
    });
  };
  return { handler, close: () => agent.destroy() };
}

const clients = {
  http: () => viaNodeHttp(),
  'http-buffered': () => viaNodeHttp({ buffered: true }),
  'undici-request': viaUndiciRequest,
  'undici-dispatch': viaUndiciDispatch,
};
if (!Object.hasOwn(clients, clientKind)) {
  const message = `BENCH_CLIENT: unknown client ${clientKind} (${Object.keys(clients).join(', ')})`;
  // the parent prints it as the reason; exit once it is sent
  await new Promise((resolve) => process.send({ type: 'failed', message }, resolve));
  process.exit(1);
}
const client = clients[clientKind]();
const server = http.createServer(client.handler);
server.keepAliveTimeout = 120_000;
server.headersTimeout = 121_000;
server.listen(0, '127.0.0.1', () => {
  process.send({ type: 'ready', url: `http://127.0.0.1:${server.address().port}` });
});
answerUsage(() => {
  server.closeAllConnections();
  server.close();
  return client.close();
});
