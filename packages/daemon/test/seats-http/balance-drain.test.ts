import { describe, expect, it } from 'vitest';
import { respond, type Behaviour, type FakeUpstream } from '../helpers/fake-upstream.js';
import type { TestDaemon } from '../helpers/test-daemon.js';
import { seatFixtures } from './support.js';
import { epochSecondsIn } from '../signals-http/support.js';

/**
 * `balance: drain` over real HTTP: each seat's 5-hour window comes from the
 * headers of its own answers, and the route spends the window that resets
 * soonest first; a seat with no headroom goes last, one that reported
 * nothing after those with headroom. A session stays on the seat that last
 * served it while that seat has headroom.
 */

const fx = seatFixtures();

/** Answers as a subscription does, with its 5-hour window's utilization and reset (null: no window headers). */
function plan(window: { utilization: number; resetSecs: number } | null): Behaviour {
  return (req, res) => {
    if (window !== null) {
      res.setHeader('anthropic-ratelimit-unified-status', 'allowed');
      res.setHeader('anthropic-ratelimit-unified-5h-utilization', String(window.utilization));
      res.setHeader('anthropic-ratelimit-unified-5h-reset', String(window.resetSecs));
    }
    return respond.anthropicMessage()(req, res);
  };
}

const SEATS = ['far', 'soon', 'silent', 'full'] as const;

async function start(): Promise<{ t: TestDaemon; up: Record<(typeof SEATS)[number], FakeUpstream> }> {
  const up = {
    far: await fx.upstream(plan({ utilization: 0.3, resetSecs: epochSecondsIn(4 * 3600) })),
    soon: await fx.upstream(plan({ utilization: 0.5, resetSecs: epochSecondsIn(20 * 60) })),
    silent: await fx.upstream(plan(null)),
    full: await fx.upstream(plan({ utilization: 1.0, resetSecs: epochSecondsIn(10 * 60) })),
  };
  const daemon = await fx.daemon({
    seats: SEATS.map((id) => ({ id, provider: 'anthropic' as const, upstream: up[id] })),
    routes: [
      { model: 'sonnet', balance: 'drain', chain: SEATS.map((seat) => ({ seat, model: 'claude-sonnet-5' })) },
      ...SEATS.map((seat) => ({ model: seat, chain: [{ seat, model: 'claude-sonnet-5' }] })),
    ],
    influence: { enabled: true },
  });
  // each seat answers once on its own route, so the daemon has seen every window
  for (const seat of SEATS) await (await ask(daemon, seat)).text();
  for (const _ of SEATS) await daemon.events.nextDecision();
  return { t: daemon, up };
}

function ask(t: TestDaemon, model: string, session?: string): Promise<Response> {
  const headers: Record<string, string> = session === undefined ? {} : { 'x-routeplane-session': session };
  return t.post('/v1/messages', { model, max_tokens: 8, messages: [] }, headers);
}

describe('balance: drain', () => {
  it('orders by the reset of each seat’s binding window: soonest first, then no window, then no headroom', async () => {
    const { t } = await start();
    const res = await ask(t, 'sonnet');
    expect(res.status).toBe(200);
    expect(res.headers.get('x-routeplane-target')).toBe('soon/claude-sonnet-5');
    expect(res.headers.get('x-routeplane-decision')).toBe(
      'soon/claude-sonnet-5(healthy) -> far/claude-sonnet-5(healthy) -> silent/claude-sonnet-5(healthy) -> full/claude-sonnet-5(healthy)',
    );
    await res.text();
    const decision = await t.events.nextDecision();
    expect(decision).toMatchObject({ balance: 'drain', served_by: 'soon/claude-sonnet-5' });
  });

  it('a session stays on its seat while that seat has headroom, and leaves it once the window is full', async () => {
    const { t, up } = await start();
    const first = await ask(t, 'sonnet', 'session-1');
    expect(first.headers.get('x-routeplane-target')).toBe('soon/claude-sonnet-5');
    await first.text();

    // `soon` now resets later than `far`: a new session goes to `far`, session-1 keeps to `soon`
    up.soon.setDefault(plan({ utilization: 0.6, resetSecs: epochSecondsIn(5 * 3600) }));
    await (await ask(t, 'soon')).text();
    const fresh = await ask(t, 'sonnet', 'session-2');
    expect(fresh.headers.get('x-routeplane-target')).toBe('far/claude-sonnet-5');
    await fresh.text();
    const kept = await ask(t, 'sonnet', 'session-1');
    expect(kept.headers.get('x-routeplane-target')).toBe('soon/claude-sonnet-5');
    expect(kept.headers.get('x-routeplane-decision')).toMatch(/^soon\/claude-sonnet-5\(healthy\) -> far\//);
    await kept.text();

    // `soon` is full: session-1 moves on, to the seat with headroom that resets first
    up.soon.setDefault(plan({ utilization: 1.0, resetSecs: epochSecondsIn(5 * 3600) }));
    await (await ask(t, 'soon')).text();
    const moved = await ask(t, 'sonnet', 'session-1');
    expect(moved.headers.get('x-routeplane-target')).toBe('far/claude-sonnet-5');
    await moved.text();
  });
});
