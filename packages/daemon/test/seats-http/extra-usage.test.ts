import { describe, expect, it } from 'vitest';
import type { Json } from '../helpers/error-shapes.js';
import { isBreaker } from '../helpers/events.js';
import { respond, type Behaviour, type FakeUpstream } from '../helpers/fake-upstream.js';
import type { TestDaemon } from '../helpers/test-daemon.js';
import { scrape } from '../metrics/scrape.js';
import { attemptsOf, controlProbe, controlSnapshot, epochSecondsIn } from '../signals-http/support.js';
import { loginThenKey, seatFixtures } from './support.js';

/**
 * `extra_usage` over real HTTP: a Claude subscription that keeps answering
 * past its plan bills the overage, and says so in its headers. With `avoid`
 * the answer is relayed (it is paid for) and the seat's quota trips until
 * the plan resets, so the next requests go elsewhere; such an answer clears
 * nothing and fails a probe. Every seat's usage says whether its last answer
 * was billed so (`usage.extra_usage`, snapshot and `/metrics`).
 */

const LOGIN = { authorization: 'Bearer sk-ant-oat01-ExtraUsage-Login-0000' };

const fx = seatFixtures();

/** A plan's answer served as extra usage: the message, with the overage headers. */
function billedPastThePlan(resetSecs: number): Behaviour {
  return (req, res) => {
    res.setHeader('anthropic-ratelimit-unified-status', 'allowed');
    res.setHeader('anthropic-ratelimit-unified-overage-in-use', 'true');
    res.setHeader('anthropic-ratelimit-unified-representative-claim', 'overage');
    res.setHeader('anthropic-ratelimit-unified-reset', String(resetSecs));
    res.setHeader('anthropic-ratelimit-unified-5h-utilization', '1.0');
    res.setHeader('anthropic-ratelimit-unified-5h-reset', String(resetSecs));
    return respond.anthropicMessage('billed as extra usage')(req, res);
  };
}

/** The Claude login seat (`max`'s upstream) avoiding or allowing extra usage, the key seat behind it. */
async function start(extraUsage: 'allow' | 'avoid', behaviour: Behaviour): Promise<{ t: TestDaemon; max: FakeUpstream }> {
  const { t, login } = await loginThenKey(fx, { login: behaviour, extraUsage });
  return { t, max: login };
}

async function ask(t: TestDaemon): Promise<{ target: string | null; text: string }> {
  const res = await t.post('/v1/messages', { model: 'sonnet', max_tokens: 8, messages: [] }, LOGIN);
  expect(res.status).toBe(200);
  const body: Json = await res.json();
  return { target: res.headers.get('x-routeplane-target'), text: body.content[0].text };
}

describe('extra_usage: avoid', () => {
  it('relays the answer billed as extra usage, then holds the seat until the plan resets; the work goes to the key seat', async () => {
    const reset = epochSecondsIn(2 * 3600);
    const { t, max } = await start('avoid', billedPastThePlan(reset));
    expect(await ask(t)).toEqual({ target: 'claude-login/claude-sonnet-5', text: 'billed as extra usage' });
    const decision = await t.events.nextDecision();
    expect(attemptsOf(decision)).toEqual([['claude-login/claude-sonnet-5', 'ok', 200, 'quota']]);
    expect(decision.attempts[0]!.signal).toEqual({
      status: 200,
      type: null,
      code: null,
      header: 'anthropic-ratelimit-unified-overage-in-use: true',
      message: null,
    });
    const trip = await t.events.take(isBreaker('tripped', 'claude-login'));
    expect(trip.breaker).toMatchObject({ kind: 'quota', scope: 'seat', reset_at: reset * 1000, until: reset * 1000 });

    expect(await ask(t)).toEqual({ target: 'api/claude-sonnet-5', text: 'from the key' });
    expect(max.requests).toHaveLength(1);
    const snap = await controlSnapshot(t);
    expect(snap.seats.find((s) => s.id === 'claude-login')!.usage).toMatchObject({ extra_usage: true });
    expect((await scrape(t)).value('routeplane_usage_extra', { seat: 'claude-login' })).toBe(1);
  });

  it('a probe answered as extra usage fails, and a plain answer afterwards clears', async () => {
    const { t, max } = await start('avoid', billedPastThePlan(epochSecondsIn(3600)));
    await ask(t);
    await t.events.take(isBreaker('tripped', 'claude-login'));
    await controlProbe(t, 'claude-login');
    expect(await ask(t)).toEqual({ target: 'claude-login/claude-sonnet-5', text: 'billed as extra usage' });
    const failed = await t.events.take(isBreaker('probe_failed', 'claude-login'));
    expect(failed).toMatchObject({
      key: 'quota:claude-login',
      failed_probes: 1,
      signal: { header: 'anthropic-ratelimit-unified-overage-in-use: true' },
    });

    max.setDefault((req, res) => {
      res.setHeader('anthropic-ratelimit-unified-status', 'allowed');
      res.setHeader('anthropic-ratelimit-unified-representative-claim', 'five_hour');
      return respond.anthropicMessage('back on the plan')(req, res);
    });
    await controlProbe(t, 'claude-login');
    expect(await ask(t)).toEqual({ target: 'claude-login/claude-sonnet-5', text: 'back on the plan' });
    await t.events.take(isBreaker('cleared', 'claude-login'));
    await expect.poll(async () => (await controlSnapshot(t)).seats.find((s) => s.id === 'claude-login')!.usage?.extra_usage).toBe(false);
    expect((await scrape(t)).value('routeplane_usage_extra', { seat: 'claude-login' })).toBe(0);
  });
});

describe('extra_usage: allow (the default)', () => {
  it('changes nothing in routing, and still shows that money is being spent', async () => {
    const { t, max } = await start('allow', billedPastThePlan(epochSecondsIn(3600)));
    for (let i = 0; i < 3; i++) expect((await ask(t)).target).toBe('claude-login/claude-sonnet-5');
    const decisions = [await t.events.nextDecision(), await t.events.nextDecision(), await t.events.nextDecision()];
    expect(decisions.map((d) => attemptsOf(d)[0]![3])).toEqual(['ok', 'ok', 'ok']);
    expect(t.context.influence.breakers()).toEqual([]);
    expect(max.requests).toHaveLength(3);
    expect((await controlSnapshot(t)).seats.map((s) => [s.id, s.usage?.extra_usage ?? null])).toEqual([
      ['claude-login', true],
      ['api', null],
    ]);
    expect((await scrape(t)).value('routeplane_usage_extra', { seat: 'api' })).toBeNaN();
  });
});
