import type { SeatUsage } from '@routeplane/shared';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type Behaviour, type FakeUpstream, respond, startFakeUpstream } from '../helpers/fake-upstream.js';
import { startTestDaemon, type TestDaemon } from '../helpers/test-daemon.js';
import { openai } from '../signals/fixtures.js';
import { answer, ask, attemptsOf, controlSnapshot, controlStatus, epochSecondsIn, rfc3339In } from './support.js';

/**
 * Usage windows: from every answer's
 * headers — a 2xx or not — the daemon keeps per seat the last windows the
 * provider reported, merged by name, and the snapshot's `seats[].usage`
 * shows them. Seen, never acted on: a window above 100% reorders nothing.
 */

let daemon: TestDaemon | null = null;
let upstreams: FakeUpstream[] = [];
afterEach(async () => {
  await daemon?.close();
  daemon = null;
  await Promise.all(upstreams.map((u) => u.close()));
  upstreams = [];
});

/** The behaviour, with these headers on its answer. */
function withHeaders(headers: Record<string, string>, behaviour: Behaviour): Behaviour {
  return (req, res) => {
    for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
    return behaviour(req, res);
  };
}

/**
 * The seat's usage in a snapshot, once its last change was announced: usage
 * events are coalesced to one per seat per second, and a snapshot shows what
 * was announced (so it agrees with the event stream).
 */
async function usageOf(t: TestDaemon, seat: string): Promise<SeatUsage | null> {
  return vi.waitFor(
    async () => {
      const shown = (await controlSnapshot(t)).seats.find((s) => s.id === seat)!.usage;
      expect(shown).toEqual(t.context.usage.liveOf(seat));
      return shown;
    },
    { timeout: 5_000, interval: 50 },
  );
}

describe('usage windows in the snapshot, per seat, merged by name', () => {
  it('Anthropic subscription (unified 5h/7d/7d_<family>), Anthropic API, OpenAI x-ratelimit and Codex x-codex-*', async () => {
    const fiveHourReset = epochSecondsIn(2 * 3600);
    const weekReset = epochSecondsIn(4 * 86_400);
    const max = await startFakeUpstream(
      withHeaders(
        {
          'anthropic-ratelimit-unified-status': 'allowed_warning',
          'anthropic-ratelimit-unified-reset': String(fiveHourReset),
          'anthropic-ratelimit-unified-representative-claim': 'five_hour',
          'anthropic-ratelimit-unified-5h-status': 'allowed_warning',
          'anthropic-ratelimit-unified-5h-reset': String(fiveHourReset),
          'anthropic-ratelimit-unified-5h-utilization': '1.01',
          'anthropic-ratelimit-unified-7d-status': 'allowed',
          'anthropic-ratelimit-unified-7d-reset': String(weekReset),
          'anthropic-ratelimit-unified-7d-utilization': '0.42',
        },
        respond.anthropicMessage(),
      ),
    );
    const requestsReset = rfc3339In(40);
    const api = await startFakeUpstream(
      withHeaders(
        {
          'anthropic-ratelimit-requests-limit': '50',
          'anthropic-ratelimit-requests-remaining': '10',
          'anthropic-ratelimit-requests-reset': requestsReset.text,
        },
        respond.anthropicMessage(),
      ),
    );
    const oai = await startFakeUpstream(
      withHeaders(
        {
          'x-ratelimit-limit-requests': '500',
          'x-ratelimit-remaining-requests': '125',
          'x-ratelimit-reset-requests': '6m0s',
          'x-ratelimit-limit-tokens': '30000',
          'x-ratelimit-remaining-tokens': '27000',
          'x-ratelimit-reset-tokens': '12ms',
        },
        respond.openaiChat(),
      ),
    );
    const secondaryReset = epochSecondsIn(5 * 86_400);
    const codex = await startFakeUpstream(
      withHeaders(
        {
          'x-codex-primary-used-percent': '37.5',
          'x-codex-primary-window-minutes': '300',
          'x-codex-primary-reset-after-seconds': '13872',
          'x-codex-secondary-used-percent': '80',
          'x-codex-secondary-window-minutes': '10080',
          'x-codex-secondary-reset-at': String(secondaryReset),
          'x-codex-credits-has-credits': 'false',
        },
        respond.openaiChat(),
      ),
    );
    upstreams = [max, api, oai, codex];
    daemon = await startTestDaemon({
      seats: [
        { id: 'max', provider: 'anthropic', upstream: max },
        { id: 'api', provider: 'anthropic', upstream: api },
        { id: 'oai', provider: 'openai', upstream: oai },
        { id: 'codex', provider: 'openai', upstream: codex },
      ],
      routes: [
        {
          model: 'claude',
          chain: [
            { seat: 'max', model: 'claude-sonnet-5' },
            { seat: 'api', model: 'claude-sonnet-5' },
          ],
        },
        { model: 'claude-api', chain: [{ seat: 'api', model: 'claude-sonnet-5' }] },
        { model: 'gpt', chain: [{ seat: 'oai', model: 'gpt-4o' }] },
        { model: 'codex', chain: [{ seat: 'codex', model: 'gpt-5-codex' }] },
      ],
      influence: { enabled: true },
    });
    expect(await usageOf(daemon, 'max')).toBeNull();

    const before = Date.now();
    await ask(daemon, 'anthropic', 'claude');
    await ask(daemon, 'anthropic', 'claude-api');
    await ask(daemon, 'openai', 'gpt');
    await ask(daemon, 'openai', 'codex');
    const after = Date.now();
    const near = (ms: number) =>
      expect.toSatisfy((v: number) => v >= before + ms - 1 && v <= after + ms + 1, `within the requests' time + ${ms} ms`);

    const snap = await controlSnapshot(daemon);
    const usage = Object.fromEntries(snap.seats.map((s) => [s.id, s.usage]));
    // `status` (so `GET /status` and `status --json`) carries every seat's usage as the snapshot has it
    expect((await controlStatus(daemon)).seats).toEqual(
      snap.seats.map((s) => ({ id: s.id, provider: s.provider, auth: s.auth, usage: s.usage })),
    );
    expect(usage.max).toEqual({
      observed_at: expect.any(Number),
      windows: [
        { name: '5h', utilization: 1.01, reset_at: fiveHourReset * 1000, status: 'allowed_warning' },
        { name: '7d', utilization: 0.42, reset_at: weekReset * 1000, status: 'allowed' },
      ],
      // a subscription's answer that says nothing of overage: not billed as extra usage
      extra_usage: false,
    });
    expect(usage.api).toEqual({
      observed_at: expect.any(Number),
      windows: [{ name: 'requests', utilization: 0.8, reset_at: requestsReset.ms, status: null }],
      // no unified headers: nothing said either way
      extra_usage: null,
    });
    expect(usage.oai).toEqual({
      observed_at: expect.any(Number),
      windows: [
        { name: 'requests', utilization: 0.75, reset_at: near(360_000), status: null },
        { name: 'tokens', utilization: 0.1, reset_at: near(12), status: null },
      ],
      extra_usage: null,
    });
    expect(usage.codex).toEqual({
      observed_at: expect.any(Number),
      windows: [
        { name: '5h', utilization: 0.375, reset_at: near(13_872_000), status: null },
        { name: '7d', utilization: 0.8, reset_at: secondaryReset * 1000, status: null },
      ],
      extra_usage: null,
    });
    for (const seat of ['max', 'api', 'oai', 'codex']) expect(usage[seat]!.observed_at).toSatisfy((v: number) => v >= before && v <= after);

    // seen, not acted on: the 5h window above 100% moves nothing
    expect(snap.routes.find((r) => r.model === 'claude')!.chain.map((e) => [e.seat, e.state])).toEqual([
      ['max', 'healthy'],
      ['api', 'healthy'],
    ]);
    expect(snap.breakers).toEqual([]);
    const claude = await daemon.events.nextDecision();
    expect(attemptsOf(claude)).toEqual([['max/claude-sonnet-5', 'ok', 200, 'ok']]);

    // a later answer reports 5h and a per-family weekly window: those change, 7d stays as it was
    max.setDefault(
      withHeaders(
        {
          'anthropic-ratelimit-unified-5h-utilization': '0.05',
          'anthropic-ratelimit-unified-5h-reset': String(fiveHourReset + 18_000),
          'anthropic-ratelimit-unified-5h-status': 'allowed',
          'anthropic-ratelimit-unified-7d_opus-utilization': '0.9',
          'anthropic-ratelimit-unified-7d_opus-reset': String(weekReset),
          'anthropic-ratelimit-unified-7d_opus-status': 'allowed_warning',
        },
        respond.anthropicMessage(),
      ),
    );
    await ask(daemon, 'anthropic', 'claude');
    const merged = await usageOf(daemon, 'max');
    expect(merged!.windows).toEqual([
      { name: '5h', utilization: 0.05, reset_at: (fiveHourReset + 18_000) * 1000, status: 'allowed' },
      { name: '7d', utilization: 0.42, reset_at: weekReset * 1000, status: 'allowed' },
      { name: '7d_opus', utilization: 0.9, reset_at: weekReset * 1000, status: 'allowed_warning' },
    ]);
    expect(merged!.observed_at).toBeGreaterThanOrEqual(usage.max!.observed_at);
  });

  it('a failed answer reports usage too: a 429 that says remaining 0 updates the window it names', async () => {
    const oai = await startFakeUpstream(
      withHeaders(
        {
          'x-ratelimit-limit-requests': '500',
          'x-ratelimit-remaining-requests': '499',
          'x-ratelimit-reset-requests': '120ms',
          'x-ratelimit-limit-tokens': '30000',
          'x-ratelimit-remaining-tokens': '15000',
          'x-ratelimit-reset-tokens': '30s',
        },
        respond.openaiChat(),
      ),
    );
    upstreams = [oai];
    daemon = await startTestDaemon({
      seats: [{ id: 'oai', provider: 'openai', upstream: oai }],
      routes: [{ model: 'gpt', chain: [{ seat: 'oai', model: 'gpt-4o' }] }],
      influence: { enabled: true },
    });
    await ask(daemon, 'openai', 'gpt');
    oai.setDefault(
      answer(429, openai.rateLimitExceeded, {
        'x-ratelimit-limit-requests': '500',
        'x-ratelimit-remaining-requests': '0',
        'x-ratelimit-reset-requests': '1m0s',
      }),
    );
    const res = await daemon.post('/v1/chat/completions', { model: 'gpt', messages: [{ role: 'user', content: 'hi' }] });
    expect(res.status).toBe(429);
    const usage = await usageOf(daemon, 'oai');
    expect(usage!.windows.map((w) => [w.name, w.utilization])).toEqual([
      ['requests', 1],
      ['tokens', 0.5],
    ]);
  });
});
