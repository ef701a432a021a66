import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Behaviour, type FakeUpstream, respond, startFakeUpstream } from '../helpers/fake-upstream.js';
import { startTestDaemon, type TestDaemon } from '../helpers/test-daemon.js';
import { exchange, expectRefused, MESSAGES, message } from '../policy-http/support.js';

/**
 * A seat's reserve over real HTTP: the usage the
 * seat's own answers report (Anthropic's unified subscription headers) holds
 * background work back while a window is above the line, never foreground.
 */

const BACKGROUND = { 'x-routeplane-lane': 'background' };
const nowS = () => Math.floor(Date.now() / 1000);

/** A served Anthropic message reporting the subscription windows given (utilization as a fraction, reset in epoch s). */
function reporting(windows: Record<string, { utilization: string; reset: number }>): Behaviour {
  const headers: Record<string, string> = {};
  for (const [name, w] of Object.entries(windows)) {
    headers[`anthropic-ratelimit-unified-${name}-utilization`] = w.utilization;
    headers[`anthropic-ratelimit-unified-${name}-reset`] = String(w.reset);
    headers[`anthropic-ratelimit-unified-${name}-status`] = 'allowed';
  }
  return (req, res) =>
    respond.json(200, { id: 'msg_fake', type: 'message', role: 'assistant', model: req.json?.model, content: [] }, headers)(req, res);
}

let max: FakeUpstream;
let spare: FakeUpstream;
let t: TestDaemon;

beforeAll(async () => {
  max = await startFakeUpstream(respond.anthropicMessage());
  spare = await startFakeUpstream(respond.anthropicMessage());
  t = await startTestDaemon({
    seats: [
      { id: 'max', provider: 'anthropic', upstream: max, reserve_pct: 20 },
      { id: 'spare', provider: 'anthropic', upstream: spare },
    ],
    routes: [
      {
        model: 'sonnet',
        chain: [
          { seat: 'max', model: 'claude-sonnet-5' },
          { seat: 'spare', model: 'claude-sonnet-5' },
        ],
      },
      { model: 'solo', chain: [{ seat: 'max', model: 'claude-sonnet-5' }] },
    ],
    influence: { enabled: true },
  });
});

afterAll(async () => {
  await t?.close();
  await Promise.all([max?.close(), spare?.close()]);
});

/** A foreground request served by `seat` whose answer reports `windows`. */
async function observe(up: FakeUpstream, seat: string, windows: Parameters<typeof reporting>[0]): Promise<void> {
  up.enqueue(reporting(windows));
  const x = await exchange(t, MESSAGES, message('sonnet'), { 'x-routeplane-pin': seat });
  expect(x.decision.served_by).toBe(`${seat}/claude-sonnet-5`);
  expect(x.decision.lane).toBe('foreground');
}

const servedBy = async (model: string, headers: Record<string, string> = BACKGROUND) =>
  (await exchange(t, MESSAGES, message(model), headers)).decision.served_by;

describe('the reserve', () => {
  it('holds nothing back before any usage was seen', async () => {
    expect(await servedBy('sonnet')).toBe('max/claude-sonnet-5');
  });

  it('above the line, background work goes to another seat; foreground keeps using it', async () => {
    const reset = nowS() + 3600;
    await observe(max, 'max', { '5h': { utilization: '0.85', reset } });
    const bg = await exchange(t, MESSAGES, message('sonnet'), BACKGROUND);
    expect(bg.decision.served_by).toBe('spare/claude-sonnet-5');
    expect(bg.decision.chain[1]).toMatchObject({ seat: 'max', state: 'tripped', reason: 'reserve' });
    expect(bg.res.headers.get('x-routeplane-decision')).toMatch(
      /^spare\/claude-sonnet-5\(healthy\) -> max\/claude-sonnet-5\(tripped: reserve, (59m\d\ds|1h00m)\)$/,
    );
    expect(await servedBy('sonnet', {})).toBe('max/claude-sonnet-5');
  });

  it('with nothing else routable: 503 until the window resets, naming the reserve', async () => {
    const before = max.requests.length;
    const x = await exchange(t, MESSAGES, message('solo'), BACKGROUND);
    expectRefused(x, 503);
    expect(Number(x.res.headers.get('retry-after'))).toBeGreaterThan(3500);
    expect(Number(x.res.headers.get('retry-after'))).toBeLessThanOrEqual(3600);
    expect(x.body).toMatchObject({
      type: 'error',
      error: {
        message: expect.stringMatching(
          /^all targets of route "solo" are held back for background work: max\/claude-sonnet-5 reserve \(resets in (59m\d\ds|1h00m)\)$/,
        ),
      },
    });
    expect(x.decision).toMatchObject({ lane: 'background', skipped: true });
    expect(x.decision.chain).toEqual([
      { seat: 'max', model: 'claude-sonnet-5', state: 'tripped', reason: 'reserve', pinned: false, left_ms: expect.any(Number) },
    ]);
    expect(x.res.headers.get('x-routeplane-decision')).toMatch(/^max\/claude-sonnet-5\(tripped: reserve, (59m\d\ds|1h00m)\)$/);
    expect(max.requests.length).toBe(before);
    // no breaker holds it: nothing counts a skip
    expect(t.context.influence.breakers()).toEqual([]);
    expect(await servedBy('solo', {})).toBe('max/claude-sonnet-5');
  });

  it('the line is inclusive: utilization equal to 1 − reserve_pct/100 holds back, just below does not', async () => {
    await observe(max, 'max', { '5h': { utilization: '0.8', reset: nowS() + 600 } });
    expect(await servedBy('sonnet')).toBe('spare/claude-sonnet-5');
    await observe(max, 'max', { '5h': { utilization: '0.79', reset: nowS() + 600 } });
    expect(await servedBy('sonnet')).toBe('max/claude-sonnet-5');
  });

  it('any window counts, until its own reset', async () => {
    const weekly = nowS() + 5 * 86_400;
    await observe(max, 'max', { '5h': { utilization: '0.1', reset: nowS() + 600 }, '7d': { utilization: '0.95', reset: weekly } });
    const x = await exchange(t, MESSAGES, message('solo'), BACKGROUND);
    expect(x.res.status).toBe(503);
    expect(Number(x.res.headers.get('retry-after'))).toBeGreaterThan(5 * 86_400 - 100);
    expect(x.body.error.message).toMatch(/reserve \(resets in (4d23h|5d00h)\)$/);
  });

  it('a window whose reset has passed holds nothing back', async () => {
    await observe(max, 'max', { '5h': { utilization: '0.99', reset: nowS() - 5 }, '7d': { utilization: '0.2', reset: nowS() + 600 } });
    expect(await servedBy('solo')).toBe('max/claude-sonnet-5');
  });

  it('reserve_pct 0 (the default) holds nothing back, even at full use', async () => {
    await observe(max, 'max', { '5h': { utilization: '0.99', reset: nowS() + 600 } });
    await observe(spare, 'spare', { '5h': { utilization: '1.0', reset: nowS() + 600 } });
    expect(await servedBy('sonnet')).toBe('spare/claude-sonnet-5');
  });

  it('tripped and above its reserve: Retry-After waits for the later of the two; across targets, the earliest target', async () => {
    t.context.influence.reset();
    await observe(max, 'max', { '5h': { utilization: '0.9', reset: nowS() + 3600 } });
    await observe(spare, 'spare', { '5h': { utilization: '0.1', reset: nowS() + 3600 } });
    // 402s: credit breakers with the 60 s cooldown on spare (its reserve not reached), then on max (reserve held for an hour)
    spare.enqueue(respond.status(402));
    expect((await exchange(t, MESSAGES, message('sonnet'), { 'x-routeplane-pin': 'spare' })).decision.served_by).toBe(
      'max/claude-sonnet-5',
    );
    max.enqueue(respond.status(402));
    expect((await exchange(t, MESSAGES, message('solo'))).res.status).toBe(402);
    expect(t.context.influence.breakers().map((b) => b.key)).toEqual(['credit:spare', 'credit:max']);

    const alone = await exchange(t, MESSAGES, message('solo'), BACKGROUND);
    expectRefused(alone, 503);
    expect(Number(alone.res.headers.get('retry-after'))).toBeGreaterThan(3500);
    expect(Number(alone.res.headers.get('retry-after'))).toBeLessThanOrEqual(3600);
    expect(alone.body.error.message).toMatch(
      /max\/claude-sonnet-5 credit \(probe in (59s|1m00s)\) and reserve \(resets in (59m\d\ds|1h00m)\)$/,
    );

    // spare is routable again first: in 60 s
    const both = await exchange(t, MESSAGES, message('sonnet'), BACKGROUND);
    expectRefused(both, 503);
    expect(Number(both.res.headers.get('retry-after'))).toBeGreaterThan(50);
    expect(Number(both.res.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    t.context.influence.reset();
  });
});
