import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ScenarioClock } from '../../src/demo/clock.js';
import { Swarm, type OutcomeRecord } from '../../src/demo/agents/swarm.js';
import { anthropicWire } from '../../src/demo/providers/anthropic-wire.js';
import { openaiWire } from '../../src/demo/providers/openai-wire.js';

// The swarm against a real HTTP server standing in for routeplane: it answers
// like the daemon would (family body, x-routeplane-* headers) and records
// every request it got, so counts on both sides can be compared.

interface Seen {
  path: string;
  model: string;
  stream: boolean;
  credential: string | undefined;
  id: string;
}

let server: Server | null = null;

afterEach(async () => {
  await new Promise<void>((resolve) => {
    if (!server) return resolve();
    server.close(() => resolve());
    server.closeAllConnections();
  });
  server = null;
});

async function startFakeRouteplane(answer: 'reply' | 'hang'): Promise<{ url: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  let next = 0;
  server = createServer(async (req, res) => {
    const body = JSON.parse(await text(req)) as { model: string; stream: boolean };
    const id = `req-${++next}`;
    const anthropic = req.url === '/v1/messages';
    seen.push({
      path: req.url ?? '',
      model: body.model,
      stream: body.stream,
      credential: (req.headers['x-api-key'] ?? req.headers.authorization) as string | undefined,
      id,
    });
    if (answer === 'hang') return;
    const wire = anthropic ? anthropicWire : openaiWire;
    const meta = { id, model: body.model, promptTokens: 3 };
    const headers = { 'x-routeplane-request-id': id, 'x-routeplane-target': `seat/${body.model}`, 'x-routeplane-attempts': '1' };
    if (body.stream) {
      res.writeHead(200, { 'content-type': 'text/event-stream', ...headers });
      res.write(wire.streamHead(meta));
      res.write(wire.streamDelta(meta, 'Hello'));
      res.end(wire.streamTail(meta, 1, body));
    } else {
      res.writeHead(200, { 'content-type': 'application/json', ...headers });
      res.end(wire.json(meta, ['Hello']));
    }
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server!.address() as AddressInfo).port}`, seen };
}

async function text(req: IncomingMessage): Promise<string> {
  let out = '';
  for await (const chunk of req) out += String(chunk);
  return out;
}

function swarmFor(url: string, onOutcome: (r: OutcomeRecord) => void, agents = 4): Swarm {
  return new Swarm({
    url,
    agents,
    // 50× speed: agents think for at most 2 ms of real time
    clock: new ScenarioClock(50),
    streamShare: 0.5,
    thinkSecs: [0, 0.1],
    seed: 7,
    routes: [
      { model: 'sonnet', family: 'anthropic', weight: 1 },
      { model: 'gpt', family: 'openai', weight: 1 },
      { model: 'never', family: 'openai', weight: 0 },
    ],
    onOutcome,
  });
}

describe('Swarm', () => {
  it('sends a mix of streamed and plain requests in each family and reads every answer whole', async () => {
    const { url, seen } = await startFakeRouteplane('reply');
    const outcomes: OutcomeRecord[] = [];
    let enough!: () => void;
    const reached = new Promise<void>((resolve) => (enough = resolve));
    const swarm = swarmFor(url, (r) => {
      outcomes.push(r);
      if (outcomes.length >= 60) enough();
    });
    swarm.start();
    await reached;
    await swarm.stop(10_000);

    expect(swarm.tally.sent).toBe(seen.length);
    expect(swarm.tally.received).toBe(swarm.tally.sent);
    expect(swarm.tally).toMatchObject({ transportErrors: 0, aborted: 0, errorStatuses: 0, incomplete: 0 });
    expect(outcomes).toHaveLength(swarm.tally.sent);
    expect(outcomes.every((o) => o.outcome.kind === 'response' && o.outcome.completion === 'complete')).toBe(true);
    // each answer is matched to its own request by the request id routeplane sent back
    const ids = outcomes.map((o) => (o.outcome.kind === 'response' ? o.outcome.requestId : null));
    expect([...ids].sort()).toEqual(seen.map((s) => s.id).sort());

    expect(seen.some((s) => s.model === 'never')).toBe(false);
    const anthropic = seen.filter((s) => s.model === 'sonnet');
    const openai = seen.filter((s) => s.model === 'gpt');
    expect(anthropic.every((s) => s.path === '/v1/messages')).toBe(true);
    expect(openai.every((s) => s.path === '/v1/chat/completions')).toBe(true);
    for (const family of [anthropic, openai]) {
      expect(family.some((s) => s.stream)).toBe(true);
      expect(family.some((s) => !s.stream)).toBe(true);
    }
    // agents carry a credential of their own, which routeplane must not pass on
    expect(seen.every((s) => s.credential !== undefined && /demo-agent-key/.test(s.credential))).toBe(true);
    expect(new Set(outcomes.map((o) => o.agent))).toEqual(new Set([1, 2, 3, 4]));
  });

  it('on stop, cuts requests still unanswered after the grace period and counts them aborted', async () => {
    const { url, seen } = await startFakeRouteplane('hang');
    const swarm = swarmFor(url, () => {}, 3);
    swarm.start();
    await expect.poll(() => seen.length, { timeout: 10_000, interval: 10 }).toBeGreaterThanOrEqual(3);
    await swarm.stop(200);
    expect(swarm.tally.sent).toBe(3);
    expect(swarm.tally.aborted).toBe(3);
    expect(swarm.tally.received).toBe(0);
    expect(swarm.inFlight).toBe(0);
  });
});
