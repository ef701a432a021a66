import { readFile } from 'node:fs/promises';
import OpenAI from 'openai';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LineClient } from '../control/line-client.js';
import { closedPortUrl } from '../helpers/closed-port.js';
import { isDecision } from '../helpers/events.js';
import { respond, startFakeUpstream, type Behaviour, type FakeUpstream, type RecordedRequest } from '../helpers/fake-upstream.js';
import { startTestDaemon, type TestDaemon } from '../helpers/test-daemon.js';
import { CHAT, chatBody, MESSAGES, messagesBody } from '../helpers/two-seats.js';
import { rawRequest } from '../helpers/raw-http.js';
import { FAST_TIMEOUTS } from '../helpers/test-timing.js';

/**
 * The one sweep for "a secret never appears in any output" (seat keys and the
 * agent token), over every error path: hostile upstreams that echo the
 * credential they received in headers (values, `www-authenticate`, a
 * redirect `location`) and in error bodies (passed back, relayed as the last
 * error of an all-fail, or too large to relay), timeouts, refused
 * connections, broken streams, lying lengths, bad input, wrong tokens, an
 * SDK's own error object — and an agent that sends a key as its model.
 * Searched: the daemon's log lines, stdout/stderr/console, the decision log,
 * every event, every control reply, every response header and body.
 *
 * Known limit (not tested as clean, reported): a 2xx body is relayed byte for
 * byte as it streams, so an upstream that echoes the key inside a *success*
 * body would hand it to the agent; the daemon redacts error bodies only.
 */

const TOKEN = 'rp-secret-token-Vb71Qx0p3e';

function credentialOf(req: RecordedRequest): string {
  return String(req.headers['x-api-key'] ?? req.headers.authorization ?? '');
}

/** Every response also carries the credential it was sent, in a header value and in `www-authenticate`. */
function echoHeaders(req: RecordedRequest): Record<string, string> {
  const seen = credentialOf(req);
  return { 'x-echo-credential': seen, 'www-authenticate': `Bearer realm="${seen}"`, 'x-echo-tail': `key=${seen.slice(-12)}` };
}

const echo = {
  status(status: number, extra: Record<string, string> = {}): Behaviour {
    return (req, res) => {
      const body = JSON.stringify({ error: { message: `credential ${credentialOf(req)} refused`, headers: req.headers } });
      res.writeHead(status, { 'content-type': 'application/json', ...echoHeaders(req), ...extra });
      res.end(body);
    };
  },
  stallMidStream(): Behaviour {
    return (req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream', ...echoHeaders(req) });
      res.write('data: {"n":1}\n\n');
    };
  },
  invalidSse(): Behaviour {
    return (req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream', ...echoHeaders(req) });
      res.end('garbage \u0000 not sse\n\n');
    };
  },
  shortLength(): Behaviour {
    return (req, res) => {
      const head = Object.entries({ 'content-type': 'application/json', 'content-length': '2', ...echoHeaders(req) })
        .map(([k, v]) => `${k}: ${v}`)
        .join('\r\n');
      res.socket?.write(`HTTP/1.1 200 OK\r\n${head}\r\n\r\n{}${credentialOf(req)}`);
    };
  },
  resetMidBody(): Behaviour {
    return (req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream', ...echoHeaders(req) });
      res.write('data: {"n":1}\n\n', () => setImmediate(() => res.socket?.destroy()));
    };
  },
  html200(): Behaviour {
    return (req, res) => {
      res.writeHead(200, { 'content-type': 'text/html', ...echoHeaders(req) });
      res.end('<html><body>Bad Gateway</body></html>');
    };
  },
  redirect(): Behaviour {
    return (req, res) => {
      res.writeHead(307, { location: `http://127.0.0.1:1/elsewhere?key=${encodeURIComponent(credentialOf(req))}`, ...echoHeaders(req) });
      res.end();
    };
  },
  endlessErrorBody(): Behaviour {
    return (req, res) => {
      res.writeHead(500, { 'content-type': 'application/json', ...echoHeaders(req) });
      res.write(`{"error":"${credentialOf(req)}","pad":"`);
      const chunk = 'p'.repeat(64 * 1024);
      const pump = (): void => {
        while (!res.destroyed && res.write(chunk));
        if (!res.destroyed) res.once('drain', pump);
      };
      pump();
    };
  },
};

/** Everything this process writes to stdout/stderr or the console while the sweep runs. */
function captureOutput(): () => string {
  const spies = [
    vi.spyOn(process.stdout, 'write'),
    vi.spyOn(process.stderr, 'write'),
    ...(['log', 'info', 'warn', 'error', 'debug'] as const).map((method) => vi.spyOn(console, method)),
  ];
  return () => spies.flatMap((spy) => spy.mock.calls.map((args) => (args as unknown[]).map(String).join(' '))).join('\n');
}

let captured: () => string = () => '';
beforeEach(() => {
  captured = captureOutput();
});
afterEach(() => {
  vi.restoreAllMocks();
});

describe('secrets never leak', () => {
  const ups: FakeUpstream[] = [];
  let t: TestDaemon | null = null;
  afterEach(async () => {
    await t?.close();
    t = null;
    await Promise.all(ups.splice(0).map((u) => u.close()));
  });

  it('keys and token stay out of logs, events, the decision log, control replies, headers and bodies', async () => {
    const behaviours: Record<string, Behaviour> = {
      s429: echo.status(429, { 'retry-after': 'whenever' }),
      shang: respond.hang(),
      sstall: echo.stallMidStream(),
      ssse: echo.invalidSse(),
      sshort: echo.shortLength(),
      sreset: echo.resetMidBody(),
      shtml: echo.html200(),
      s401: echo.status(401),
      sredir: echo.redirect(),
      sbig: echo.endlessErrorBody(),
      s400: echo.status(400),
      s402: echo.status(402),
      xant: echo.status(500),
      x402: echo.status(402),
    };
    const seats = [];
    const routes = [];
    for (const [id, behaviour] of Object.entries(behaviours)) {
      const up = await startFakeUpstream(behaviour);
      ups.push(up);
      seats.push({ id, provider: id.startsWith('x') ? ('anthropic' as const) : ('openai' as const), upstream: up });
      routes.push({ model: id, chain: [{ seat: id, model: `${id}-model` }] });
    }
    // a seat nothing listens on: connection refused
    seats.push({ id: 'sref', provider: 'openai' as const, upstream: await closedPortUrl() });
    routes.push({ model: 'sref', chain: [{ seat: 'sref', model: 'sref-model' }] });
    routes.push({
      model: 'refusedthenhang',
      chain: [
        { seat: 'sref', model: 'sref-model' },
        { seat: 'shang', model: 'shang-model' },
      ],
    });
    routes.push({
      model: 'authcredit',
      chain: [
        { seat: 's401', model: 's401-model' },
        { seat: 's402', model: 's402-model' },
      ],
    });
    routes.push({
      model: 'allfail',
      chain: [
        { seat: 's401', model: 's401-model' },
        { seat: 's429', model: 's429-model' },
      ],
    });
    routes.push({
      model: 'claudefail',
      chain: [
        { seat: 'x402', model: 'x402-model' },
        { seat: 'xant', model: 'xant-model' },
      ],
    });
    t = await startTestDaemon({
      seats,
      routes,
      influence: { enabled: true, cooldown_secs: 1, trip_threshold: 1 },
      timeouts: FAST_TIMEOUTS,
      server: { auth_token: TOKEN, body_limit_mb: 1 },
    });
    const daemon = t;
    const secrets = [...Object.values(daemon.keys), TOKEN];
    const auth = { authorization: `Bearer ${TOKEN}` };
    const seen: string[] = [];
    const record = async (res: Response): Promise<number> => {
      seen.push(`${res.status} ${JSON.stringify([...res.headers])}`);
      seen.push(await res.text().catch((e: unknown) => `body failed: ${String(e)}`));
      return res.status;
    };
    const chat = (model: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = auth) =>
      daemon.post(CHAT, chatBody({ model, ...extra }), headers).then(record);
    const messages = (model: string, extra: Record<string, unknown> = {}) =>
      daemon.post(MESSAGES, messagesBody({ model, ...extra }), auth).then(record);

    let decisions = 0;
    expect(await chat('s429')).toBe(429);
    expect(await chat('shang')).toBe(504);
    // both no-response failures named in the daemon's own error (504: the last was a timeout), then a refusal alone (502)
    expect(await chat('refusedthenhang')).toBe(504);
    expect(await chat('sref')).toBe(502);
    expect(await chat('sstall', { stream: true })).toBe(200);
    expect(await chat('ssse', { stream: true })).toBe(200);
    expect(await chat('sshort')).toBe(200);
    expect(await chat('sreset', { stream: true })).toBe(200);
    expect(await chat('shtml')).toBe(200);
    expect(await chat('s401')).toBe(401);
    expect(await chat('s400')).toBe(400);
    // every target failed: the refused key ranks before the empty account, so the 401 is relayed
    expect(await chat('authcredit')).toBe(401);
    expect(await chat('allfail')).toBe(429);
    expect(await chat('sbig')).toBe(500);
    expect(await messages('xant')).toBe(500);
    expect(await messages('claudefail')).toBe(500);
    const redirect = await daemon.post(CHAT, chatBody({ model: 'sredir' }), auth);
    expect(redirect.status).toBe(307);
    expect(redirect.headers.get('location')).toBeNull();
    await record(redirect);
    decisions += 17;
    // an SDK turns the passed-back error into an exception: its message and fields carry no secret either
    const sdkError = await new OpenAI({ apiKey: TOKEN, baseURL: `${daemon.url}/v1`, maxRetries: 0 }).chat.completions
      .create({ model: 's400', messages: [] })
      .catch((e: unknown) => e);
    expect(sdkError).toBeInstanceOf(OpenAI.BadRequestError);
    seen.push(String(sdkError), JSON.stringify(sdkError));
    decisions += 1;

    // bad input and refusals, some carrying a secret where it does not belong
    expect(await chat(TOKEN)).toBe(404);
    expect(await chat(`prefix-${daemon.keys.s401}`)).toBe(404);
    decisions += 2;
    expect(await record(await daemon.post(CHAT, '{"model":', auth))).toBe(400);
    expect(await record(await daemon.post(CHAT, { messages: [] }, auth))).toBe(400);
    expect(await record(await daemon.post(CHAT, { model: 7 }, auth))).toBe(400);
    decisions += 3;
    expect(await record(await daemon.post(CHAT, JSON.stringify({ model: 's429', pad: 'x'.repeat(1_100_000) }), auth))).toBe(413);
    expect(await chat('s429', {}, { authorization: `Bearer ${TOKEN}x` })).toBe(401);
    expect(await chat('s429', {}, { 'x-api-key': daemon.keys.s429! })).toBe(401);
    expect(await record(await fetch(`${daemon.url}/v1/chat/completions`, { headers: auth }))).toBe(405);
    // an unknown path is named back to the agent that sent it (its own input, nowhere else): status only
    expect((await fetch(`${daemon.url}/v2/${TOKEN}`, { method: 'POST', headers: auth, body: '{}' })).status).toBe(404);
    const huge = await rawRequest(daemon.url, { path: CHAT, headers: { ...auth, 'x-pad': TOKEN.repeat(3000) }, body: '{}' });
    expect(huge.status).toBe(431);
    seen.push(`${huge.status} ${JSON.stringify(huge.headers)}`, huge.text);
    expect(await record(await fetch(`${daemon.url}/status`, { headers: auth }))).toBe(200);
    expect(await record(await fetch(`${daemon.url}/v1/models`, { headers: auth }))).toBe(200);
    for (let i = 0; i < decisions; i++) await daemon.events.nextDecision();

    // the keys were really in play: the upstreams received them, and echoed them
    expect(credentialOf(ups[0]!.requests[0]!)).toBe(`Bearer ${daemon.keys.s429}`);
    expect(ups.find((u) => u.requests.some((r) => r.headers['x-api-key'] === daemon.keys.xant))).toBeDefined();
    const client = await LineClient.connect(daemon.daemon.socketPath);
    const control = [await client.request('hello'), await client.request('snapshot'), await client.request('status')];
    client.close();
    expect(control.map((reply) => reply.ok)).toEqual([true, true, true]);

    await daemon.daemon.close(); // flushes the decision log; t.close() later removes the temp dir
    const decisionLog = await readFile(daemon.decisionLogPath!, 'utf8');
    expect(decisionLog.trim().split('\n')).toHaveLength(decisions);

    const outputs: Record<string, string> = {
      'response headers and bodies': seen.join('\n'),
      'daemon log lines': daemon.logs.join('\n'),
      'stdout/stderr/console': captured(),
      'decision log': decisionLog,
      events: JSON.stringify(daemon.events.events),
      'control replies': JSON.stringify(control),
    };
    const leaks: string[] = [];
    for (const [where, text] of Object.entries(outputs)) {
      for (const secret of secrets) if (text.includes(secret)) leaks.push(`${where} contains ${secret.slice(0, 12)}…`);
    }
    expect(leaks).toEqual([]);
    // the echoing headers were dropped, the echoing error bodies redacted — the agent still saw the rest
    expect(outputs['response headers and bodies']).not.toContain('x-echo-credential');
    expect(outputs['response headers and bodies']).not.toContain('www-authenticate');
    expect(outputs['response headers and bodies']).toContain('[redacted]');
    // an agent that sent a secret as its model: the decision names the route with the secret redacted
    const decidedRoutes = daemon.events.all(isDecision).map((d) => d.route);
    expect(decidedRoutes).toContain('[redacted]');
    expect(decidedRoutes).toContain('prefix-[redacted]');
  });
});
