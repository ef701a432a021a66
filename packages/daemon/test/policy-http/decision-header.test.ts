import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isBreaker } from '../helpers/events.js';
import { type Behaviour, type FakeUpstream, respond, startFakeUpstream } from '../helpers/fake-upstream.js';
import { startTestDaemon, type TestDaemon } from '../helpers/test-daemon.js';
import { CHAT, chat, exchange, MESSAGES, message } from './support.js';

/**
 * `x-routeplane-decision` over real HTTP: the grammar of a tripped chain,
 * exactly as the README's example reads, and which answers carry it.
 */

/** LEFT as the spec writes it: `41s`, `3m05s`, `1h01m`, `2d03h`, rounded down. */
function left(ms: number): string {
  const s = Math.floor(ms / 1000);
  const two = (n: number) => String(n).padStart(2, '0');
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${two(s % 60)}s`;
  if (s < 86_400) return `${Math.floor(s / 3600)}h${two(Math.floor(s / 60) % 60)}m`;
  return `${Math.floor(s / 86_400)}d${two(Math.floor(s / 3600) % 24)}h`;
}

/** A Claude subscription whose 5-hour window is used up until `resetAt` (epoch s): Anthropic's real answer. */
function windowUsedUp(resetAt: number): Behaviour {
  return respond.json(
    429,
    {
      type: 'error',
      error: { type: 'rate_limit_error', message: "This request would exceed your account's rate limit. Please try again later." },
    },
    {
      'anthropic-ratelimit-unified-status': 'rejected',
      'anthropic-ratelimit-unified-reset': String(resetAt),
      'anthropic-ratelimit-unified-representative-claim': 'five_hour',
    },
  );
}

describe("the spec's example chain", () => {
  let max1: FakeUpstream;
  let max2: FakeUpstream;
  let api: FakeUpstream;
  let t: TestDaemon;

  beforeAll(async () => {
    max1 = await startFakeUpstream(respond.anthropicMessage());
    max2 = await startFakeUpstream(respond.anthropicMessage());
    api = await startFakeUpstream(respond.anthropicMessage());
    t = await startTestDaemon({
      seats: [
        { id: 'max-1', provider: 'anthropic', upstream: max1 },
        { id: 'max-2', provider: 'anthropic', upstream: max2 },
        { id: 'api', provider: 'anthropic', upstream: api },
      ],
      routes: [
        {
          model: 'sonnet',
          chain: [
            { seat: 'max-1', model: 'claude-sonnet-4-5', weight: 2 },
            { seat: 'max-2', model: 'claude-sonnet-4-5' },
            { seat: 'api', model: 'claude-sonnet-4-5', weight: 0, cost_per_mtok: 3 },
          ],
        },
      ],
      influence: { enabled: true, cooldown_secs: 60, max_cooldown_secs: 200 },
    });
  });

  afterAll(async () => {
    await t?.close();
    await Promise.all([max1?.close(), max2?.close(), api?.close()]);
  });

  it('reads exactly as the spec writes it, for a seat whose window resets in 2h14m', async () => {
    // 2h14m30s from now, in whole seconds: LEFT reads 2h14m for the next half minute
    max1.enqueue(windowUsedUp(Math.floor(Date.now() / 1000) + 2 * 3600 + 14 * 60 + 30));
    const tripping = await exchange(t, MESSAGES, message('sonnet'));
    expect(tripping.decision.served_by).toBe('max-2/claude-sonnet-4-5');
    // the chain as this request ordered it: nothing was tripped when it started
    expect(tripping.res.headers.get('x-routeplane-decision')).toBe(
      'max-1/claude-sonnet-4-5(healthy) -> max-2/claude-sonnet-4-5(healthy) -> api/claude-sonnet-4-5(skipped: drained)',
    );
    await t.events.take(isBreaker('tripped', 'max-1'));

    const x = await exchange(t, MESSAGES, message('sonnet'));
    expect(x.res.headers.get('x-routeplane-decision')).toBe(
      'max-2/claude-sonnet-4-5(healthy) -> max-1/claude-sonnet-4-5(tripped: quota, 2h14m) -> api/claude-sonnet-4-5(skipped: drained)',
    );
    expect(x.decision.chain[1]).toMatchObject({ seat: 'max-1', state: 'tripped', reason: 'quota', left_ms: expect.any(Number) });
    expect(left(x.decision.chain[1]!.left_ms!)).toBe('2h14m');
  });

  it('minutes and seconds, the probe, and fail-open, in the same grammar', async () => {
    t.context.influence.reset();
    // max-2 rate-limited for 185 s (max-1 fails first so the request reaches it)
    max1.enqueue(respond.status(500));
    max2.enqueue(respond.rateLimited('185'));
    await exchange(t, MESSAGES, message('sonnet'));
    await t.events.take(isBreaker('tripped', 'max-2'));
    const limited = await exchange(t, MESSAGES, message('sonnet'));
    const deadline = limited.decision.chain[1]!;
    expect(deadline).toMatchObject({ seat: 'max-2', state: 'tripped', reason: 'rate_limit' });
    expect(left(deadline.left_ms!)).toMatch(/^3m0[0-5]s$/);
    expect(limited.res.headers.get('x-routeplane-decision')).toBe(
      `max-1/claude-sonnet-4-5(healthy) -> max-2/claude-sonnet-4-5(tripped: rate_limit, ${left(deadline.left_ms!)}) -> api/claude-sonnet-4-5(skipped: drained)`,
    );

    t.context.influence.reset();
    // a 402 on max-2: a credit cooldown of 60 s
    max1.enqueue(respond.status(500));
    max2.enqueue(respond.status(402));
    await exchange(t, MESSAGES, message('sonnet'));
    await t.events.take(isBreaker('tripped', 'max-2'));

    const tripped = await exchange(t, MESSAGES, message('sonnet'));
    const entry = tripped.decision.chain[1]!;
    expect(entry).toMatchObject({ seat: 'max-2', state: 'tripped', reason: 'credit' });
    expect(tripped.res.headers.get('x-routeplane-decision')).toBe(
      `max-1/claude-sonnet-4-5(healthy) -> max-2/claude-sonnet-4-5(tripped: credit, ${left(entry.left_ms!)}) -> api/claude-sonnet-4-5(skipped: drained)`,
    );
    expect(left(entry.left_ms!)).toMatch(/^(59s|1m00s)$/);

    // probe-ready at once (the probe command stands in for the cooldown)
    t.context.influence.probe('max-2');
    await t.events.take(isBreaker('probe_ready', 'max-2'));
    // max-1 now fails with a 500, so the request reaches the probe at max-2's configured position
    max1.enqueue(respond.status(500));
    const probe = await exchange(t, MESSAGES, message('sonnet'));
    expect(probe.decision.served_by).toBe('max-2/claude-sonnet-4-5');
    expect(probe.res.headers.get('x-routeplane-decision')).toBe(
      'max-1/claude-sonnet-4-5(healthy) -> max-2/claude-sonnet-4-5(probe) -> api/claude-sonnet-4-5(skipped: drained)',
    );

    // both tripped with minutes left: fail-open reads each entry's reason
    t.context.influence.reset();
    max1.enqueue(respond.status(402));
    max2.enqueue(respond.status(402));
    await exchange(t, MESSAGES, message('sonnet'));
    await t.events.take(isBreaker('tripped', 'max-1'));
    await t.events.take(isBreaker('tripped', 'max-2'));
    const open = await exchange(t, MESSAGES, message('sonnet'));
    expect(open.decision.fail_open).toBe(true);
    expect(open.res.headers.get('x-routeplane-decision')).toBe(
      'max-1/claude-sonnet-4-5(fail-open: credit) -> max-2/claude-sonnet-4-5(fail-open: credit) -> api/claude-sonnet-4-5(skipped: drained)',
    );
  });
});

describe('which answers carry it', () => {
  let up: FakeUpstream;
  let t: TestDaemon;
  const longModel = (i: number) => `model-${String(i).padStart(2, '0')}-${'x'.repeat(60)}`;

  beforeAll(async () => {
    up = await startFakeUpstream(respond.openaiChat());
    t = await startTestDaemon({
      seats: [{ id: 'a', provider: 'openai', upstream: up }],
      routes: [
        { model: 'gpt', chain: [{ seat: 'a', model: 'gpt-5' }] },
        { model: 'accents', chain: [{ seat: 'a', model: 'modèle-ü-🚀' }] },
        { model: 'long', chain: Array.from({ length: 20 }, (_, i) => ({ seat: 'a', model: longModel(i) })) },
      ],
      server: { body_limit_mb: 0.01, auth_token: 'tok-header-test' },
    });
  });

  afterAll(async () => {
    await t?.close();
    await up?.close();
  });

  const auth = { authorization: 'Bearer tok-header-test' };

  it('a served answer, a passed-back 4xx and an all-failed answer carry it', async () => {
    expect((await exchange(t, CHAT, chat('gpt'), auth)).res.headers.get('x-routeplane-decision')).toBe('a/gpt-5(healthy)');
    up.enqueue(respond.status(400));
    const passed = await exchange(t, CHAT, chat('gpt'), auth);
    expect(passed.res.status).toBe(400);
    expect(passed.res.headers.get('x-routeplane-decision')).toBe('a/gpt-5(healthy)');
    up.enqueue(respond.status(500));
    const failed = await exchange(t, CHAT, chat('gpt'), auth);
    expect(failed.res.status).toBe(500);
    expect(failed.res.headers.get('x-routeplane-decision')).toBe('a/gpt-5(healthy)');
  });

  it("a route with no target of the request's family answers 400 with it: every entry skipped for the protocol", async () => {
    const x = await exchange(t, MESSAGES, message('gpt'), auth);
    expect(x.res.status).toBe(400);
    expect(x.decision.route).toBe('gpt');
    expect(x.decision.attempts).toEqual([]);
    expect(x.res.headers.get('x-routeplane-decision')).toBe('a/gpt-5(skipped: protocol)');
  });

  it('an unknown model, a bad body, a 401 and a 413 do not', async () => {
    expect((await t.post(CHAT, chat('nope'), auth)).headers.get('x-routeplane-decision')).toBeNull();
    expect((await t.post(CHAT, '{"model":', auth)).headers.get('x-routeplane-decision')).toBeNull();
    const unauthorized = await t.post(CHAT, chat('gpt'));
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.headers.get('x-routeplane-decision')).toBeNull();
    const big = await t.post(CHAT, chat('gpt', { pad: 'x'.repeat(20_000) }), auth);
    expect(big.status).toBe(413);
    expect(big.headers.get('x-routeplane-decision')).toBeNull();
  });

  it('each non-ASCII character of an id is one "?" (x-routeplane-target is written the same way)', async () => {
    const x = await exchange(t, CHAT, chat('accents'), auth);
    expect(x.res.status).toBe(200);
    expect(x.res.headers.get('x-routeplane-decision')).toBe('a/mod?le-?-?(healthy)');
    expect(x.res.headers.get('x-routeplane-target')).toBe('a/mod?le-?-?');
    expect(x.decision.served_by).toBe('a/modèle-ü-🚀');
    expect(up.requests.at(-1)?.json.model).toBe('modèle-ü-🚀');
  });

  it('past 1024 bytes it is cut after the last whole entry that fits, then " -> ..."', async () => {
    const x = await exchange(t, CHAT, chat('long'), auth);
    const header = x.res.headers.get('x-routeplane-decision')!;
    expect(Buffer.byteLength(header)).toBeLessThanOrEqual(1024);
    expect(header.endsWith(' -> ...')).toBe(true);
    const entries = header.slice(0, -' -> ...'.length).split(' -> ');
    expect(entries).toEqual(entries.map((_, i) => `a/${longModel(i)}(healthy)`));
    expect(entries.length).toBeGreaterThan(1);
    // one more whole entry would not have fit
    const withOneMore = `${[...entries, `a/${longModel(entries.length)}(healthy)`].join(' -> ')} -> ...`;
    expect(Buffer.byteLength(withOneMore)).toBeGreaterThan(1024);
  });
});
