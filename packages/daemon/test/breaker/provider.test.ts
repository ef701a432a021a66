import { describe, expect, it } from 'vitest';
import { OK } from '../../src/signals/evidence.js';
import { engine, sig, transitions } from './engine-fixture.js';

// Two seats on one upstream (trailing slash ignored), a third elsewhere.
const seats = [
  { id: 'one', base: 'https://api.anthropic.example' },
  { id: 'two', base: 'https://api.anthropic.example/' },
  { id: 'far', base: 'https://other.example' },
];
const refs = [
  { seat: 'one', model: 'sonnet' },
  { seat: 'two', model: 'sonnet' },
  { seat: 'far', model: 'sonnet' },
  { seat: 'one', model: 'haiku' },
];
const err = { class: 'model_error' as const, signal: sig(500) };
const PROVIDER = 'errors:provider:https://api.anthropic.example/sonnet';

describe('the provider-wide breaker', () => {
  it('failures alternating over two seats of one upstream trip the provider model; another upstream serves first', () => {
    const e = engine(seats, refs);
    e.attempt('one', 'sonnet', err);
    e.attempt('two', 'sonnet', err);
    e.attempt('one', 'sonnet', err);
    expect(e.breaker(PROVIDER)).toMatchObject({
      kind: 'errors',
      scope: 'provider',
      seat: null,
      upstream: 'https://api.anthropic.example',
      model: 'sonnet',
    });
    expect(e.events.find((x) => x.key === PROVIDER)).toMatchObject({ scope: 'provider_model', seat: null, model: 'sonnet' });
    // every sonnet target of the upstream goes back; the same seat's other model does not
    expect(e.names(e.plan())).toEqual(['far/sonnet', 'one/haiku', 'one/sonnet', 'two/sonnet']);
    expect(e.inf.routes()[0]!.chain.find((t) => t.seat === 'two')?.reasons).toEqual(['provider_errors']);
  });

  it('failures on one seat only trip that target, never the provider layer', () => {
    const e = engine(seats, refs);
    for (let i = 0; i < 6; i++) e.attempt('one', 'sonnet', err);
    expect(transitions(e.events)).toEqual(['tripped errors:one/sonnet']);
    expect(e.names(e.plan())).toEqual(['two/sonnet', 'far/sonnet', 'one/haiku', 'one/sonnet']);
  });

  it('an ok of the model on any seat of the upstream resets the provider streak', () => {
    const e = engine(seats, refs);
    e.attempt('one', 'sonnet', err);
    e.attempt('two', 'sonnet', err);
    e.attempt('two', 'sonnet', OK);
    e.attempt('one', 'sonnet', err);
    expect(e.breaker(PROVIDER)).toBeUndefined();
  });

  it('a failure more than window_secs after the previous one restarts the provider streak, and its seats', () => {
    const e = engine(seats, refs, { window_secs: 300 });
    e.attempt('one', 'sonnet', err);
    e.attempt('two', 'sonnet', err);
    e.clock.advance(300_001);
    // without the restart this would be 4 failures from 2 seats; it is 2 from seat one only
    e.attempt('one', 'sonnet', err);
    e.attempt('one', 'sonnet', err);
    expect(e.breaker(PROVIDER)).toBeUndefined();
    expect(transitions(e.events)).toEqual([]);
    // within the window again, a second seat's failure makes it 3 from 2 seats
    e.clock.advance(299_000);
    e.attempt('two', 'sonnet', err);
    expect(e.breaker(PROVIDER)).toMatchObject({ kind: 'errors', scope: 'provider' });
    expect(transitions(e.events)).toEqual([`tripped ${PROVIDER}`]);
  });

  it('one probe for all its targets; a success of the model on any seat of the upstream clears it', () => {
    const e = engine(seats, refs, { cooldown_secs: 10 });
    e.attempt('one', 'sonnet', err);
    e.attempt('two', 'sonnet', err);
    e.attempt('one', 'sonnet', err);
    e.clock.advance(10_000);
    const plans = Array.from({ length: 20 }, () => e.plan());
    const probes = plans.flatMap((p) => p.targets.filter((t) => t.state === 'probe').map((t) => t.seat));
    expect(probes).toEqual(['one']);
    expect(e.breaker(PROVIDER)?.phase).toBe('probing');
    const [first] = plans;
    e.inf.record(first!, e.find(first!, 'one', 'sonnet'), OK);
    for (const p of plans) e.inf.finish(p);
    expect(e.breaker(PROVIDER)).toBeUndefined();
    expect(e.names(e.plan())).toEqual(['one/sonnet', 'two/sonnet', 'far/sonnet', 'one/haiku']);
  });
});
