import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isBreaker } from '../helpers/events.js';
import { type Behaviour, type FakeUpstream, respond, startFakeUpstream } from '../helpers/fake-upstream.js';
import { startTestDaemon, type TestDaemon } from '../helpers/test-daemon.js';
import { CHAT, chat, exchange, expectRefused, MESSAGES, message, sessionTag } from './support.js';

/** Pins over real HTTP. */

/** Seats answering 402 (told apart by the key the daemon sends); every other seat answers 200. */
const broke = new Set<string>();
function bySeat(ok: Behaviour): Behaviour {
  return (req, res) => {
    const key = req.headers['x-api-key'] ?? req.headers.authorization?.replace(/^Bearer /, '');
    const seat = Object.entries(t.keys).find(([, k]) => k === key)?.[0];
    return seat !== undefined && broke.has(seat) ? respond.status(402)(req, res) : ok(req, res);
  };
}

let anthropic: FakeUpstream;
let openai: FakeUpstream;
let t: TestDaemon;

beforeAll(async () => {
  anthropic = await startFakeUpstream(bySeat(respond.anthropicMessage()));
  openai = await startFakeUpstream(bySeat(respond.openaiChat()));
  t = await startTestDaemon({
    seats: [
      { id: 'm1', provider: 'anthropic', upstream: anthropic },
      { id: 'm2', provider: 'anthropic', upstream: anthropic },
      { id: 'api', provider: 'anthropic', upstream: anthropic },
      { id: 'solo', provider: 'anthropic', upstream: anthropic },
      { id: 'oa', provider: 'openai', upstream: openai },
    ],
    routes: [
      {
        model: 'sonnet',
        chain: [
          { seat: 'm1', model: 'claude-sonnet-5' },
          { seat: 'm2', model: 'claude-sonnet-5' },
          { seat: 'm2', model: 'claude-sonnet-alt' },
          { seat: 'api', model: 'claude-sonnet-5', weight: 0 },
          { seat: 'oa', model: 'gpt-5' },
        ],
      },
      { model: 'm1/special', chain: [{ seat: 'solo', model: 'claude-special' }] },
      { model: 'other', chain: [{ seat: 'solo', model: 'claude-other' }] },
    ],
    aliases: { fast: 'sonnet' },
    influence: { enabled: true, cooldown_secs: 60 },
  });
});

afterAll(async () => {
  await t?.close();
  await Promise.all([anthropic?.close(), openai?.close()]);
});

describe('a pin', () => {
  it('header SEAT: the seat’s first entry in the chain is tried first and marked pinned', async () => {
    const x = await exchange(t, MESSAGES, message('sonnet'), { 'x-routeplane-pin': 'm2' });
    expect(x.res.status).toBe(200);
    expect(x.decision.served_by).toBe('m2/claude-sonnet-5');
    expect(x.decision.chain.map((e) => [`${e.seat}/${e.model}`, e.pinned])).toEqual([
      ['m2/claude-sonnet-5', true],
      ['m1/claude-sonnet-5', false],
      ['m2/claude-sonnet-alt', false],
      ['api/claude-sonnet-5', false],
      ['oa/gpt-5', false],
    ]);
    expect(x.res.headers.get('x-routeplane-decision')).toBe(
      'm2/claude-sonnet-5(pinned) -> m1/claude-sonnet-5(healthy) -> m2/claude-sonnet-alt(healthy) -> api/claude-sonnet-5(skipped: drained) -> oa/gpt-5(skipped: protocol)',
    );
  });

  it('header SEAT/MODEL pins that entry', async () => {
    const x = await exchange(t, MESSAGES, message('sonnet'), { 'x-routeplane-pin': 'm2/claude-sonnet-alt' });
    expect(x.decision.served_by).toBe('m2/claude-sonnet-alt');
    expect(x.decision.chain[0]).toMatchObject({ seat: 'm2', model: 'claude-sonnet-alt', pinned: true });
    expect(anthropic.requests.at(-1)?.json.model).toBe('claude-sonnet-alt');
  });

  it('model SEAT/ROUTE pins the seat, through an alias too', async () => {
    for (const requested of ['m2/sonnet', 'm2/fast']) {
      const x = await exchange(t, MESSAGES, message(requested));
      expect(x.res.status).toBe(200);
      expect(x.decision.requested).toBe(requested);
      expect(x.decision.route).toBe('sonnet');
      expect(x.decision.served_by).toBe('m2/claude-sonnet-5');
      expect(x.decision.chain[0]?.pinned).toBe(true);
    }
  });

  it('an exact route name with a slash is that route, never a pin', async () => {
    const x = await exchange(t, MESSAGES, message('m1/special'));
    expect(x.decision.route).toBe('m1/special');
    expect(x.decision.served_by).toBe('solo/claude-special');
    expect(x.decision.chain[0]?.pinned).toBe(false);
  });

  it('the header wins over a SEAT/ROUTE model name', async () => {
    const x = await exchange(t, MESSAGES, message('m2/sonnet'), { 'x-routeplane-pin': 'm1' });
    expect(x.decision.served_by).toBe('m1/claude-sonnet-5');
    expect(x.decision.chain[0]).toMatchObject({ seat: 'm1', pinned: true });
  });

  it.each([
    ['unknown', 'nope', /pin "nope" refused: unknown/],
    ['unknown', 'nope/claude-sonnet-5', /pin "nope\/claude-sonnet-5" refused: unknown/],
    ['not_in_chain', 'solo', /pin "solo" refused: not_in_chain/],
    ['not_in_chain', 'm1/claude-sonnet-alt', /pin "m1\/claude-sonnet-alt" refused: not_in_chain/],
    ['drained', 'api', /pin "api" refused: drained/],
    ['protocol', 'oa', /pin "oa" refused: protocol/],
    ['protocol', 'oa/gpt-5', /pin "oa\/gpt-5" refused: protocol/],
  ])('%s: header %s → 400 in the family shape naming the pin and the reason, with a decision, no attempt', async (_reason, pin, words) => {
    const before = anthropic.requests.length + openai.requests.length;
    const x = await exchange(t, MESSAGES, message('sonnet'), { 'x-routeplane-pin': pin });
    expectRefused(x, 400);
    expect(x.body).toMatchObject({ type: 'error', error: { type: 'invalid_request_error', message: expect.stringMatching(words) } });
    expect(x.decision.route).toBe('sonnet');
    expect(x.res.headers.get('x-routeplane-decision')).toMatch(/^m1\/claude-sonnet-5\(healthy\) -> /);
    expect(anthropic.requests.length + openai.requests.length).toBe(before);
  });

  it('a refused pin still records the session it came from', async () => {
    const byHeader = await exchange(t, MESSAGES, message('sonnet'), { 'x-routeplane-pin': 'nope', 'x-routeplane-session': 'agent-7' });
    expectRefused(byHeader, 400);
    expect(byHeader.decision.session).toBe(sessionTag('agent-7'));
    const byBody = await exchange(t, MESSAGES, message('sonnet', { metadata: { user_id: 'user_abc_session_42' } }), {
      'x-routeplane-pin': 'api',
    });
    expectRefused(byBody, 400);
    expect(byBody.decision.session).toBe(sessionTag('user_abc_session_42'));
  });

  it('a SEAT/ROUTE pin to a seat outside the route is refused, never re-routed', async () => {
    const x = await exchange(t, MESSAGES, message('solo/sonnet'));
    expectRefused(x, 400);
    expect(x.body.error.message).toMatch(/pin "solo\/sonnet" refused: not_in_chain/);
  });

  it('a pin on the OpenAI family is refused in the OpenAI shape', async () => {
    const x = await exchange(t, CHAT, chat('sonnet'), { 'x-routeplane-pin': 'm1' });
    expectRefused(x, 400);
    expect(x.body).toMatchObject({ error: { message: expect.stringMatching(/pin "m1" refused: protocol/) } });
  });

  it('a pin to a tripped target is tried first, and the chain follows as its fallback', async () => {
    broke.add('m1');
    const tripping = await exchange(t, MESSAGES, message('sonnet'), { 'x-routeplane-pin': 'm1' });
    expect(tripping.decision.attempts.map((a) => [a.seat, a.status])).toEqual([
      ['m1', 402],
      ['m2', 200],
    ]);
    await t.events.take(isBreaker('tripped', 'm1'));

    // unpinned, the tripped m1 goes last
    const unpinned = await exchange(t, MESSAGES, message('sonnet'));
    expect(unpinned.decision.served_by).toBe('m2/claude-sonnet-5');
    expect(unpinned.decision.chain[2]).toMatchObject({ seat: 'm1', state: 'tripped', pinned: false });

    // pinned, it goes first whatever its breaker says
    broke.delete('m1');
    const pinned = await exchange(t, MESSAGES, message('sonnet'), { 'x-routeplane-pin': 'm1' });
    expect(pinned.decision.attempts.map((a) => `${a.seat}/${a.model}`)).toEqual(['m1/claude-sonnet-5']);
    expect(pinned.decision.served_by).toBe('m1/claude-sonnet-5');
    expect(pinned.decision.chain[0]).toMatchObject({ seat: 'm1', state: 'tripped', reason: 'credit', pinned: true });
    expect(pinned.res.headers.get('x-routeplane-decision')).toBe(
      'm1/claude-sonnet-5(pinned) -> m2/claude-sonnet-5(healthy) -> m2/claude-sonnet-alt(healthy) -> api/claude-sonnet-5(skipped: drained) -> oa/gpt-5(skipped: protocol)',
    );
  });
});
