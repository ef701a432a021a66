// Time to first chunk at c=1: a measurement, not a load generator. One
// keep-alive connection per target, one streamed request at a time, the
// targets taken in turn (rotating who goes first) so noise falls on all alike.
// The mock spaces its chunks `gapMs` apart, so a proxy that held chunks back
// would show it here as tens of milliseconds.
import http from 'node:http';

function once(agent, url, path, body, headers) {
  return new Promise((resolve, reject) => {
    const u = new URL(path, url);
    const req = http.request(
      { host: u.hostname, port: u.port, path: u.pathname, method: 'POST', agent, headers: { ...headers, 'content-length': body.length } },
      (res) => {
        const headersAt = performance.now();
        let firstAt = null;
        let chunks = 0;
        res.on('data', () => {
          firstAt ??= performance.now();
          chunks++;
        });
        res.on('end', () => {
          if (res.statusCode !== 200) reject(new Error(`${url}: status ${res.statusCode}`));
          else
            resolve({
              headersMs: headersAt - start,
              firstChunkMs: (firstAt ?? performance.now()) - start,
              endMs: performance.now() - start,
              reads: chunks,
            });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    const start = performance.now();
    req.end(body);
  });
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const quantile = (xs, q) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
};

/**
 * @param {Array<{name: string, url: string}>} targets
 * @returns {Promise<Record<string, {firstChunkP50: number, firstChunkP90: number, headersP50: number, endP50: number, samples: number}>>}
 */
export async function measureFirstChunk(targets, { path, body, headers, iterations, warmup = 10, chunks = 10, gapMs = 2 }) {
  const agents = new Map(targets.map((t) => [t.name, new http.Agent({ keepAlive: true, maxSockets: 1 })]));
  const reqHeaders = { ...headers, 'x-mock-chunks': String(chunks), 'x-mock-gap-ms': String(gapMs) };
  const samples = new Map(targets.map((t) => [t.name, []]));
  try {
    for (let i = 0; i < warmup + iterations; i++) {
      for (let k = 0; k < targets.length; k++) {
        const t = targets[(i + k) % targets.length];
        const r = await once(agents.get(t.name), t.url, path, body, reqHeaders);
        if (i >= warmup) samples.get(t.name).push(r);
      }
    }
  } finally {
    for (const a of agents.values()) a.destroy();
  }
  const out = {};
  for (const [name, rs] of samples) {
    out[name] = {
      firstChunkP50: median(rs.map((r) => r.firstChunkMs)),
      firstChunkP90: quantile(
        rs.map((r) => r.firstChunkMs),
        0.9,
      ),
      headersP50: median(rs.map((r) => r.headersMs)),
      endP50: median(rs.map((r) => r.endMs)),
      samples: rs.length,
    };
  }
  return out;
}
