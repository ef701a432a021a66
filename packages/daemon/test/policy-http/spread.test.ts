import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { isBreaker } from '../helpers/events.js';
import { type Behaviour, type FakeUpstream, respond, startFakeUpstream } from '../helpers/fake-upstream.js';
import { startTestDaemon, type TestDaemon } from '../helpers/test-daemon.js';
import { CHAT, chat, exchange, keyWhoseFirstIs, MESSAGES, message, rendezvousOrder, sessionTag } from './support.js';

/**
 * `balance: spread` over real HTTP: every source
 * of the session key, the formula's seat for each key, stickiness, weights,
 * and a tripped target's sessions moving away and coming back.
 */

const GPT = [
  { label: 'o1/gpt-1', weight: 1 },
  { label: 'o2/gpt-2', weight: 1 },
  { label: 'o3/gpt-3', weight: 1 },
];
const CLAUDE = [
  { label: 'c1/claude-1', weight: 1 },
  { label: 'c2/claude-2', weight: 1 },
  { label: 'c3/claude-3', weight: 1 },
];
const HEAVY = [
  { label: 'o1/gpt-1', weight: 2 },
  { label: 'o2/gpt-2', weight: 1 },
];

/** Models answering 402 (out of credit); every other model answers 200. */
const broke = new Set<string>();
function byModel(ok: Behaviour): Behaviour {
  return (req, res) => (broke.has(String(req.json?.model)) ? respond.status(402)(req, res) : ok(req, res));
}

let openai: FakeUpstream;
let anthropic: FakeUpstream;
let t: TestDaemon;

beforeAll(async () => {
  openai = await startFakeUpstream(byModel(respond.openaiChat()));
  anthropic = await startFakeUpstream(byModel(respond.anthropicMessage()));
  t = await startTestDaemon({
    seats: [
      { id: 'o1', provider: 'openai', upstream: openai },
      { id: 'o2', provider: 'openai', upstream: openai },
      { id: 'o3', provider: 'openai', upstream: openai },
      { id: 'c1', provider: 'anthropic', upstream: anthropic },
      { id: 'c2', provider: 'anthropic', upstream: anthropic },
      { id: 'c3', provider: 'anthropic', upstream: anthropic },
    ],
    routes: [
      { model: 'gpt', balance: 'spread', chain: GPT.map(({ label }) => ({ seat: label.split('/')[0]!, model: label.split('/')[1]! })) },
      {
        model: 'claude',
        balance: 'spread',
        chain: CLAUDE.map(({ label }) => ({ seat: label.split('/')[0]!, model: label.split('/')[1]! })),
      },
      {
        model: 'heavy',
        balance: 'spread',
        chain: [
          { seat: 'o1', model: 'gpt-1', weight: 2 },
          { seat: 'o2', model: 'gpt-2' },
        ],
      },
    ],
    influence: { enabled: true, cooldown_secs: 60 },
  });
});

afterAll(async () => {
  await t?.close();
  await Promise.all([openai?.close(), anthropic?.close()]);
});

type Source = { name: string; path: string; route: string; targets: typeof GPT; send: (key: string) => [unknown, Record<string, string>] };

const SOURCES: Source[] = [
  {
    name: 'header x-routeplane-session',
    path: CHAT,
    route: 'gpt',
    targets: GPT,
    send: (k) => [chat('gpt'), { 'x-routeplane-session': k }],
  },
  {
    name: 'header x-claude-code-session-id',
    path: MESSAGES,
    route: 'claude',
    targets: CLAUDE,
    send: (k) => [message('claude'), { 'x-claude-code-session-id': k }],
  },
  {
    name: "Anthropic body's metadata.user_id",
    path: MESSAGES,
    route: 'claude',
    targets: CLAUDE,
    send: (k) => [message('claude', { metadata: { user_id: k } }), {}],
  },
  { name: 'Codex header session_id', path: CHAT, route: 'gpt', targets: GPT, send: (k) => [chat('gpt'), { session_id: k }] },
  { name: 'Codex header session-id', path: CHAT, route: 'gpt', targets: GPT, send: (k) => [chat('gpt'), { 'session-id': k }] },
  {
    name: "OpenAI body's prompt_cache_key",
    path: CHAT,
    route: 'gpt',
    targets: GPT,
    send: (k) => [chat('gpt', { prompt_cache_key: k }), {}],
  },
];

describe('the session key', () => {
  it.each(SOURCES)('$name: each key goes to the seat the formula picks; the decision records the tag, never the key', async (source) => {
    const keys = Array.from({ length: 6 }, (_, i) => `${source.name.replace(/\W+/g, '-')}-key-${i}`);
    const firsts = new Set<string>();
    for (const key of keys) {
      const [body, headers] = source.send(key);
      const x = await exchange(t, source.path, body, headers);
      const expected = rendezvousOrder(key, source.targets);
      firsts.add(expected[0]!);
      expect(x.res.status).toBe(200);
      expect(x.res.headers.get('x-routeplane-target')).toBe(expected[0]);
      expect(x.decision.session).toBe(sessionTag(key));
      expect(x.decision.session).toMatch(/^[0-9a-f]{12}$/);
      expect(x.decision.balance).toBe('spread');
      expect(x.decision.route).toBe(source.route);
      // the whole chain is in the key's base order (nothing is tripped)
      expect(x.decision.chain.map((e) => `${e.seat}/${e.model}`)).toEqual(expected);
      expect(JSON.stringify(x.decision)).not.toContain(key);
      expect(x.res.headers.get('x-routeplane-decision')).not.toContain(key);
    }
    // the keys were varied enough to tell a spread from a fixed order
    expect(firsts.size).toBeGreaterThan(1);
  });

  it('the first present source wins, and body fields count only in their own family', async () => {
    const both = await exchange(t, MESSAGES, message('claude', { metadata: { user_id: 'from-body' } }), {
      'x-routeplane-session': 'from-routeplane',
      'x-claude-code-session-id': 'from-claude-code',
    });
    expect(both.decision.session).toBe(sessionTag('from-routeplane'));

    const claudeCode = await exchange(t, MESSAGES, message('claude', { metadata: { user_id: 'from-body' } }), {
      'x-claude-code-session-id': 'from-claude-code',
      session_id: 'from-codex',
    });
    expect(claudeCode.decision.session).toBe(sessionTag('from-claude-code'));

    const userIdOverCodex = await exchange(t, MESSAGES, message('claude', { metadata: { user_id: 'from-body' } }), {
      session_id: 'from-codex',
    });
    expect(userIdOverCodex.decision.session).toBe(sessionTag('from-body'));

    const codexOverCacheKey = await exchange(t, CHAT, chat('gpt', { prompt_cache_key: 'from-cache-key' }), { 'session-id': 'from-codex' });
    expect(codexOverCacheKey.decision.session).toBe(sessionTag('from-codex'));

    // metadata.user_id in an OpenAI body, prompt_cache_key in an Anthropic body: no session
    const openaiMetadata = await exchange(t, CHAT, chat('gpt', { metadata: { user_id: 'not-a-session' } }));
    expect(openaiMetadata.decision.session).toBeNull();
    const anthropicCacheKey = await exchange(t, MESSAGES, message('claude', { prompt_cache_key: 'not-a-session' }));
    expect(anthropicCacheKey.decision.session).toBeNull();
  });

  it('without a session every request gets a fresh random key: session null, requests spread one by one', async () => {
    const served = new Set<string>();
    for (let i = 0; i < 16; i++) {
      const x = await exchange(t, CHAT, chat('gpt'));
      expect(x.res.status).toBe(200);
      expect(x.decision.session).toBeNull();
      expect(x.decision.balance).toBe('spread');
      served.add(x.decision.served_by!);
    }
    // all 16 on one seat of three would happen once in 10^7 runs
    expect(served.size).toBeGreaterThan(1);
  });

  it('the decision log keeps the tag, never the key', async () => {
    const key = 'a-session-key-that-must-not-be-written-down';
    const x = await exchange(t, CHAT, chat('gpt'), { 'x-routeplane-session': key });
    const path = t.decisionLogPath!;
    const text = await vi.waitFor(
      async () => {
        const content = await readFile(path, 'utf8');
        if (!content.includes(x.decision.request_id)) throw new Error('decision not written yet');
        return content;
      },
      { timeout: 5_000, interval: 20 },
    );
    expect(text).toContain(sessionTag(key));
    expect(text).not.toContain(key);
  });
});

describe('affinity', () => {
  it('a session sticks to one seat request after request', async () => {
    for (const key of ['sticky-a', 'sticky-b', 'sticky-c']) {
      const seats = new Set<string>();
      for (let i = 0; i < 4; i++) {
        const x = await exchange(t, CHAT, chat('gpt'), { 'x-routeplane-session': key });
        seats.add(x.decision.served_by!);
      }
      expect([...seats]).toEqual([rendezvousOrder(key, GPT)[0]]);
    }
  });

  it('weights: each key is served where the weighted formula says, also where weight 1 would have chosen otherwise', async () => {
    const unweighted = HEAVY.map((t) => ({ ...t, weight: 1 }));
    let weightDecided = 0;
    for (let i = 0; i < 24; i++) {
      const key = `weighted-${i}`;
      const expected = rendezvousOrder(key, HEAVY)[0]!;
      const x = await exchange(t, CHAT, chat('heavy'), { 'x-routeplane-session': key });
      expect(x.decision.served_by).toBe(expected);
      if (rendezvousOrder(key, unweighted)[0] !== expected) weightDecided++;
    }
    // the sample holds keys that only the weight sends to o1: a daemon ignoring weights fails above
    expect(weightDecided).toBeGreaterThan(0);
  });

  it("a tripped target's sessions move to their next seat, others stay, and they come back once it clears", async () => {
    const key = keyWhoseFirstIs('o1/gpt-1', GPT, 'moving');
    const other = keyWhoseFirstIs('o2/gpt-2', GPT, 'staying');
    const [, fallback] = rendezvousOrder(key, GPT);
    const headers = { 'x-routeplane-session': key };

    broke.add('gpt-1');
    const failed = await exchange(t, CHAT, chat('gpt'), headers);
    expect(failed.decision.attempts.map((a) => [`${a.seat}/${a.model}`, a.status])).toEqual([
      ['o1/gpt-1', 402],
      [fallback, 200],
    ]);
    await t.events.take(isBreaker('tripped', 'o1'));

    // while o1 is tripped the session goes straight to its second seat; another session is not disturbed
    const moved = await exchange(t, CHAT, chat('gpt'), headers);
    expect(moved.decision.served_by).toBe(fallback);
    expect(moved.decision.attempts).toHaveLength(1);
    expect(moved.decision.chain.at(-1)).toMatchObject({ seat: 'o1', state: 'tripped', reason: 'credit' });
    expect(moved.decision.session).toBe(sessionTag(key));
    const stayed = await exchange(t, CHAT, chat('gpt'), { 'x-routeplane-session': other });
    expect(stayed.decision.served_by).toBe('o2/gpt-2');

    // once o1 is probe-ready (the probe command stands in for its cooldown) the session's own
    // request probes it and, o1 healthy again, comes back
    broke.delete('gpt-1');
    expect(t.context.influence.probe('o1')).toEqual({ ok: true, made_ready: 1 });
    await t.events.take(isBreaker('probe_ready', 'o1'));
    const probe = await exchange(t, CHAT, chat('gpt'), headers);
    expect(probe.decision.served_by).toBe('o1/gpt-1');
    expect(probe.decision.chain[0]).toMatchObject({ seat: 'o1', state: 'probe' });
    await t.events.take(isBreaker('cleared', 'o1'));
    const back = await exchange(t, CHAT, chat('gpt'), headers);
    expect(back.decision.served_by).toBe('o1/gpt-1');
    expect(back.decision.chain[0]).toMatchObject({ seat: 'o1', state: 'healthy' });
  });
});
