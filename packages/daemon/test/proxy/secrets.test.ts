import { readFile } from 'node:fs/promises';
import OpenAI from 'openai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { closedPortUrl } from '../helpers/closed-port.js';
import { respond, startFakeUpstream, type Behaviour, type FakeUpstream } from '../helpers/fake-upstream.js';
import { startTestDaemon, type TestDaemon } from '../helpers/test-daemon.js';
import { CHAT, chatBody, MESSAGES, messagesBody } from '../helpers/two-seats.js';

/**
 * A seat's API key (and the agent token) must never appear in a log line,
 * stdout/stderr, the decision log, an event, a response header or an error
 * body — even when a hostile upstream echoes the credentials it received.
 */

const TOKEN = 'rp-token-9d2f4c7a1e';

/** An upstream that echoes the credentials it received, in a header and in the body. */
function echoCredentials(status: number): Behaviour {
  return (req, res) => {
    const seen = String(req.headers['x-api-key'] ?? req.headers.authorization ?? '');
    const body = JSON.stringify({ error: { message: `key ${seen} rejected`, type: 'echo', headers: req.headers } });
    res.writeHead(status, { 'content-type': 'application/json', 'x-echo-credential': seen, 'www-authenticate': `Bearer realm="${seen}"` });
    res.end(body);
  };
}

const captured: string[] = [];
const restore: Array<() => void> = [];

beforeEach(() => {
  captured.length = 0;
  for (const stream of [process.stdout, process.stderr]) {
    const original = stream.write.bind(stream);
    stream.write = ((chunk: unknown, ...rest: unknown[]) => {
      captured.push(String(chunk));
      return (original as (...a: unknown[]) => boolean)(chunk, ...rest);
    }) as typeof stream.write;
    restore.push(() => (stream.write = original as typeof stream.write));
  }
  for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const) {
    const original = console[method];
    console[method] = (...args: unknown[]) => {
      captured.push(args.map(String).join(' '));
      original(...args);
    };
    restore.push(() => (console[method] = original));
  }
});

afterEach(() => {
  for (const r of restore.splice(0)) r();
});

describe('secrets never leak', () => {
  const ups: FakeUpstream[] = [];
  let t: TestDaemon | null = null;
  afterEach(async () => {
    await t?.close();
    t = null;
    await Promise.all(ups.splice(0).map((u) => u.close()));
  });

  it('through every error path: logs, stdout/stderr, decision log, events, headers, bodies', async () => {
    const echo401 = await startFakeUpstream(echoCredentials(401));
    const echo402 = await startFakeUpstream(echoCredentials(402));
    const echo400 = await startFakeUpstream(echoCredentials(400));
    const echo500 = await startFakeUpstream(echoCredentials(500));
    const echoOk = await startFakeUpstream((req, res) => {
      res.writeHead(200, {
        'content-type': 'application/json',
        'x-echo-credential': String(req.headers.authorization ?? req.headers['x-api-key']),
      });
      res.end('{"ok":true}');
    });
    const hang = await startFakeUpstream(respond.hang());
    const broken = await startFakeUpstream(respond.resetMidBody('data: {"n":1}\n\n'));
    ups.push(echo401, echo402, echo400, echo500, echoOk, hang, broken);
    const refused = await closedPortUrl();

    t = await startTestDaemon({
      seats: [
        { id: 's401', provider: 'openai', upstream: echo401 },
        { id: 's402', provider: 'openai', upstream: echo402 },
        { id: 's400', provider: 'openai', upstream: echo400 },
        { id: 's500', provider: 'anthropic', upstream: echo500 },
        { id: 'sok', provider: 'openai', upstream: echoOk },
        { id: 'shang', provider: 'openai', upstream: hang },
        { id: 'sref', provider: 'openai', upstream: refused },
        { id: 'sbroken', provider: 'openai', upstream: broken },
      ],
      routes: [
        {
          model: 'auth-then-credit',
          chain: [
            { seat: 's401', model: 'm' },
            { seat: 's402', model: 'm' },
          ],
        },
        { model: 'bad-request', chain: [{ seat: 's400', model: 'm' }] },
        { model: 'server-error', chain: [{ seat: 's500', model: 'm' }] },
        { model: 'ok', chain: [{ seat: 'sok', model: 'm' }] },
        {
          model: 'timeout',
          chain: [
            { seat: 'sref', model: 'm' },
            { seat: 'shang', model: 'm' },
          ],
        },
        {
          model: 'refused',
          chain: [
            { seat: 'shang', model: 'm' },
            { seat: 'sref', model: 'm' },
          ],
        },
        { model: 'broken', chain: [{ seat: 'sbroken', model: 'm' }] },
      ],
      influence: { enabled: true, trip_threshold: 1 },
      timeouts: { first_byte_ms: 1_000 },
      server: { auth_token: TOKEN },
    });
    const auth = { authorization: `Bearer ${TOKEN}` };
    const seen: string[] = [];
    const record = async (res: Response) => {
      seen.push(`${res.status} ${JSON.stringify([...res.headers])}`);
      seen.push(await res.text().catch((e: unknown) => `body failed: ${String(e)}`));
      return res;
    };

    // every target failed: the refused key ranks before the empty account (spec/signals.md), so the 401 is relayed
    expect((await record(await t.post(CHAT, chatBody({ model: 'auth-then-credit' }), auth))).status).toBe(401);
    expect((await record(await t.post(CHAT, chatBody({ model: 'bad-request' }), auth))).status).toBe(400);
    expect((await record(await t.post(MESSAGES, messagesBody({ model: 'server-error' }), auth))).status).toBe(500);
    expect((await record(await t.post(CHAT, chatBody({ model: 'ok' }), auth))).status).toBe(200);
    expect((await record(await t.post(CHAT, chatBody({ model: 'timeout' }), auth))).status).toBe(504);
    expect((await record(await t.post(CHAT, chatBody({ model: 'refused' }), auth))).status).toBe(502);
    expect((await record(await t.post(CHAT, chatBody({ model: 'broken', stream: true }), auth))).status).toBe(200);
    expect((await record(await t.post(CHAT, chatBody({ model: 'unknown' }), auth))).status).toBe(404);
    expect((await record(await t.post(CHAT, '{"model":', auth))).status).toBe(400);
    expect((await record(await t.post(CHAT, chatBody({ model: 'ok' }), { authorization: 'Bearer wrong' }))).status).toBe(401);
    expect((await record(await fetch(`${t.url}/status`, { headers: auth }))).status).toBe(200);
    const sdkError = await new OpenAI({ apiKey: TOKEN, baseURL: `${t.url}/v1`, maxRetries: 0 }).chat.completions
      .create({ model: 'bad-request', messages: [] })
      .catch((e: unknown) => e);
    seen.push(String(sdkError), JSON.stringify(sdkError));
    for (let i = 0; i < 8; i++) await t.events.nextDecision();

    // the keys were really in play: the upstreams received them
    expect(echo401.requests[0]!.headers.authorization).toBe(`Bearer ${t.keys.s401}`);
    expect(echo500.requests[0]!.headers['x-api-key']).toBe(t.keys.s500);

    await t.daemon.close(); // flushes the decision log; t.close() later removes the temp dir
    const decisionLog = await readFile(t.decisionLogPath!, 'utf8');
    expect(decisionLog.split('\n').filter(Boolean).length).toBeGreaterThanOrEqual(8);

    const outputs = {
      'response headers and bodies': seen.join('\n'),
      'daemon log lines': t.logs.join('\n'),
      'stdout/stderr/console': captured.join('\n'),
      'decision log': decisionLog,
      events: JSON.stringify(t.events.events),
    };
    const secrets = [...Object.values(t.keys), TOKEN];
    for (const [where, text] of Object.entries(outputs)) {
      for (const secret of secrets) expect(text.includes(secret), `${where} must not contain a secret`).toBe(false);
    }
    // the echoes did reach the agent, minus the secret
    expect(outputs['response headers and bodies']).toContain('[redacted]');
  });
});
