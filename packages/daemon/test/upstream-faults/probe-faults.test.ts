import { describe, expect } from 'vitest';
import type { BreakerAction } from '@routeplane/shared';
import { isBreaker } from '../helpers/events.js';
import { respond, type Behaviour } from '../helpers/fake-upstream.js';
import { hostileIt as it } from '../helpers/hostile-fixture.js';
import { headersThenSilence, rawResponse, stallAfterFirstChunk } from '../helpers/hostile-behaviours.js';

/**
 * A probe meeting each hostile upstream (issue 7: "none leaves a probe
 * claimed forever"): seat a is tripped for credit, its cooldown passes, and
 * the probe request meets the fault. Every fault resolves the claim — a
 * failure re-trips with the cooldown doubled, a success clears, a no-verdict
 * answer releases — and the snapshot shows no claim afterwards.
 */

const SSE_FIRST = 'data: {"n":1}\n\n';

const FAULTS: Array<[string, Behaviour, boolean, BreakerAction]> = [
  ['never sends headers (first-byte timeout)', respond.hang(), false, 'probe_failed'],
  ['headers then silence (idle timeout before a byte)', headersThenSilence(), true, 'probe_failed'],
  ['stalls mid-stream (idle timeout after bytes)', stallAfterFirstChunk(SSE_FIRST), true, 'probe_failed'],
  ['resets mid-body', respond.resetMidBody(SSE_FIRST), true, 'probe_failed'],
  ['resets before headers', respond.resetBeforeHeaders(), false, 'probe_failed'],
  [
    'content-length too long, then closes',
    rawResponse('HTTP/1.1 200 OK\ncontent-type: application/json\ncontent-length: 300', '{"x":', { end: true }),
    false,
    'probe_failed',
  ],
  ['garbage instead of HTTP', rawResponse('GARBAGE', 'x'), false, 'probe_failed'],
  ['a 429 with a garbage Retry-After', respond.rateLimited('later'), false, 'probe_failed'],
  ['a 503', respond.status(503), false, 'probe_failed'],
  ['invalid SSE with a 200', respond.sse(['not sse at all\n', '\u0000\n\n']), true, 'cleared'],
  ['an HTML page with a 200', respond.json(200, '<html>oops</html>', { 'content-type': 'text/html' }), false, 'cleared'],
  [
    'content-length too short',
    rawResponse('HTTP/1.1 200 OK\ncontent-type: application/json\ncontent-length: 2', '{}EXTRA'),
    false,
    'cleared',
  ],
  ["a 401 (the seat's key refused: the probe fails)", respond.status(401), false, 'probe_failed'],
  ['a 400 (no verdict)', respond.status(400), false, 'probe_ready'],
];

describe.concurrent('a probe meeting a hostile upstream', () => {
  it.for(FAULTS)('%s: the claim is resolved, never left hanging', async ([_what, fault, stream, verdict], { hostile }) => {
    const fx = await hostile();
    fx.a.setDefault(respond.status(402));
    await (await fx.post(fx.main())).text();
    await fx.t.events.nextDecision();
    const tripped = await fx.t.events.take(isBreaker('tripped', 'a'));
    await fx.t.events.take(isBreaker('probe_ready', 'a'));

    fx.a.setDefault(fault);
    const res = await fx.post(fx.main({ stream }));
    await res.text().catch(() => 'cut');
    const d = await fx.t.events.nextDecision();
    expect(d.chain[0]).toMatchObject({ seat: 'a', state: 'probe' });
    expect(d.attempts[0]!.seat).toBe('a');

    await fx.t.events.take(isBreaker('probe_claimed', 'a'));
    const outcome = await fx.t.events.take(isBreaker(verdict, 'a'));
    const credit = fx.seatA().credit;
    if (verdict === 'probe_failed') {
      expect(outcome.cooldown_ms).toBe(tripped.cooldown_ms! * 2);
      expect(outcome.failed_probes).toBe(1);
      expect(credit).toMatchObject({ claimed_at: null, failed_probes: 1, cooldown_ms: tripped.cooldown_ms! * 2 });
    } else if (verdict === 'cleared') {
      expect(credit).toBeNull();
    } else {
      expect(outcome.reason).toBe('probe gave no verdict');
      expect(credit).toMatchObject({ claimed_at: null, failed_probes: 0 });
    }
  });
});
