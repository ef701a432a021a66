import { readFile } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { isBreaker, isDecision } from '../helpers/events.js';
import { type Behaviour, type FakeUpstream, type RecordedRequest, respond, startFakeUpstream } from '../helpers/fake-upstream.js';
import { startTestDaemon, type TestDaemon } from '../helpers/test-daemon.js';
import { CHAT, chatBody, MESSAGES, messagesBody } from '../helpers/two-seats.js';
import { LineClient } from '../control/line-client.js';
import { controlSnapshot } from './support.js';

/**
 * No seat key in any signal, event, decision, log line or response body,
 * even when a provider echoes the key it was
 * sent inside its error message — in the Anthropic and OpenAI error shapes,
 * as an HTTP error and as an error inside a 200. Each answer below really
 * carries the key (checked), and the test reads everything a person or an
 * agent could see: the answers, the events and decisions, the control
 * socket's replies, the decision log and the daemon's log lines.
 */

let t: TestDaemon | null = null;
let upstreams: FakeUpstream[] = [];
afterEach(async () => {
  await t?.close();
  t = null;
  await Promise.all(upstreams.map((u) => u.close()));
  upstreams = [];
});

/** The key the seat sent, as the upstream received it. */
function keyOf(req: RecordedRequest): string {
  const bearer = String(req.headers.authorization ?? '').replace(/^Bearer /, '');
  return String(req.headers['x-api-key'] ?? bearer);
}

/** An error echoing the received key: `(key) => body`, with this status and content type. */
function echo(status: number, body: (key: string) => string, headers: Record<string, string> = {}): Behaviour {
  return (req, res) => {
    const text = body(keyOf(req));
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)), ...headers });
    res.end(text);
  };
}

const shapes: Record<string, Behaviour> = {
  // Anthropic shape: an auth error, a rate limit and a credit-balance 400 that quote the key
  antAuth: echo(
    401,
    (k) => `{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key: ${k}"},"request_id":"req_011"}`,
  ),
  antLimit: echo(
    429,
    (k) => `{"type":"error","error":{"type":"rate_limit_error","message":"This request would exceed your account's rate limit for ${k}."}}`,
    { 'retry-after': '5' },
  ),
  antCredit: echo(
    400,
    (k) =>
      `{"type":"error","error":{"type":"invalid_request_error","message":"Your credit balance is too low to access the Anthropic API with ${k}."}}`,
  ),
  antStream: (req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.end(`event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded (${keyOf(req)})"}}\n\n`);
  },
  // OpenAI shape: invalid_api_key, insufficient_quota, and OpenRouter's errors inside a 200
  oaiKey: echo(
    401,
    (k) =>
      `{"error":{"message":"Incorrect API key provided: ${k}. You can find your API key at https://platform.openai.com/account/api-keys.","type":"invalid_request_error","param":null,"code":"invalid_api_key"}}`,
  ),
  oaiQuota: echo(
    429,
    (k) =>
      `{"error":{"message":"You exceeded your current quota (${k}), please check your plan and billing details.","type":"insufficient_quota","param":null,"code":"insufficient_quota"}}`,
  ),
  orDown: echo(200, (k) => `{"error":{"code":502,"message":"model is down for ${k}","metadata":{}}}`),
  orBad: echo(200, (k) => `{"error":{"code":400,"message":"Input required for ${k}"}}`),
};

describe('a seat key echoed by the upstream reaches no one', () => {
  it('Anthropic and OpenAI shapes, as errors and inside a 200: signals, events, decisions, snapshot, logs and bodies are clean', async () => {
    const seats = [];
    for (const [id, behaviour] of Object.entries(shapes)) {
      const up = await startFakeUpstream(behaviour);
      upstreams.push(up);
      seats.push({ id: id.toLowerCase(), provider: id.startsWith('ant') ? ('anthropic' as const) : ('openai' as const), upstream: up });
    }
    const chain = (...ids: string[]) => ids.map((id) => ({ seat: id, model: `${id}-model` }));
    t = await startTestDaemon({
      seats,
      routes: [
        { model: 'claude', chain: chain('antauth', 'antlimit', 'antcredit', 'antstream') },
        { model: 'gpt', chain: chain('oaikey', 'oaiquota', 'ordown') },
        { model: 'bad', chain: chain('orbad') },
      ],
      influence: { enabled: true, cooldown_secs: 60, trip_threshold: 1 },
    });
    const daemon = t;
    const keys = Object.values(daemon.keys);
    const seen: string[] = [];
    const record = async (res: Response) => {
      seen.push(`${res.status} ${JSON.stringify([...res.headers])}`);
      const body = await res.text();
      seen.push(body);
      return { status: res.status, body, length: res.headers.get('content-length') };
    };

    // every target fails; the ranked answer is relayed — the rate limit for Anthropic, the error inside OpenRouter's 200 for OpenAI
    const claude = await record(await daemon.post(MESSAGES, messagesBody({ model: 'claude', stream: true })));
    expect(claude.status).toBe(429);
    expect(claude.body).toBe(
      `{"type":"error","error":{"type":"rate_limit_error","message":"This request would exceed your account's rate limit for [redacted]."}}`,
    );
    const gpt = await record(await daemon.post(CHAT, chatBody({ model: 'gpt' })));
    expect(gpt.status).toBe(200);
    expect(gpt.body).toBe('{"error":{"code":502,"message":"model is down for [redacted]","metadata":{}}}');
    // the request's own fault inside a 200: relayed as sent, the key taken out
    const bad = await record(await daemon.post(CHAT, chatBody({ model: 'bad' })));
    expect(bad.status).toBe(200);
    expect(bad.body).toBe('{"error":{"code":400,"message":"Input required for [redacted]"}}');
    expect(bad.length).toBe(String(Buffer.byteLength(bad.body)));

    // every answer above did carry its seat's key
    for (const up of upstreams) expect(up.requests.length).toBeGreaterThan(0);
    for (const [id, key] of Object.entries(daemon.keys))
      expect(keyOf(upstreams[seats.findIndex((s) => s.id === id)]!.requests[0]!)).toBe(key);

    const decisions = daemon.events.all(isDecision);
    expect(decisions).toHaveLength(3);
    const signals = decisions.flatMap((d) => d.attempts.map((a) => a.signal));
    expect(signals.filter((s) => s?.message?.includes('[redacted]'))).toHaveLength(8);
    const trips = daemon.events.all(isBreaker('tripped'));
    expect(trips.map((e) => e.key).sort()).toEqual([
      'credit:antcredit',
      'credit:oaiquota',
      'errors:antstream/antstream-model',
      'errors:ordown/ordown-model',
      'key_rejected:antauth',
      'key_rejected:oaikey',
      'rate_limit:antlimit',
    ]);
    for (const trip of trips) expect(trip.signal?.message).toContain('[redacted]');

    const client = await LineClient.connect(daemon.daemon.socketPath);
    await client.request('snapshot');
    await client.request('status');
    client.close();
    const logPath = daemon.decisionLogPath!;
    await expect.poll(async () => (await readFile(logPath, 'utf8').catch(() => '')).trim().split('\n').length).toBe(3);

    const everything = [
      ...seen,
      JSON.stringify(daemon.events.events),
      JSON.stringify(client.lines),
      await readFile(logPath, 'utf8'),
      daemon.logs.join('\n'),
    ].join('\n');
    expect(everything).toContain('[redacted]');
    for (const key of keys) expect(everything).not.toContain(key);
  });
});

describe('a seat key echoed in a usage header reaches no screen', () => {
  it("a window's status that carries the key is not kept; the rest of the window is", async () => {
    const up = await startFakeUpstream((req, res) => {
      res.setHeader('anthropic-ratelimit-unified-5h-status', keyOf(req));
      res.setHeader('anthropic-ratelimit-unified-5h-utilization', '0.5');
      res.setHeader('anthropic-ratelimit-unified-7d-status', 'allowed');
      res.setHeader('anthropic-ratelimit-unified-7d-utilization', '0.25');
      return respond.anthropicMessage()(req, res);
    });
    upstreams.push(up);
    t = await startTestDaemon({
      seats: [{ id: 'max', provider: 'anthropic', upstream: up }],
      routes: [{ model: 'claude', chain: [{ seat: 'max', model: 'claude-sonnet-5' }] }],
      influence: { enabled: true },
    });
    const res = await t.post(MESSAGES, messagesBody());
    expect(res.status).toBe(200);
    await res.arrayBuffer();
    expect(keyOf(up.requests[0]!)).toBe(t.keys.max);

    const snapshot = await controlSnapshot(t);
    expect(snapshot.seats[0]!.usage!.windows).toEqual([
      { name: '5h', utilization: 0.5, reset_at: null, status: null },
      { name: '7d', utilization: 0.25, reset_at: null, status: 'allowed' },
    ]);
    // not even the part of the key a 40-character status would have kept
    const random = t.keys.max!.slice(-36);
    expect(JSON.stringify(snapshot)).not.toContain(random.slice(0, 12));
  });
});
