import { describe, expect, it } from 'vitest';
import { type Breaker, type BreakerKind, type BreakerSubject, breakerKey } from '../src/breaker/breaker.js';
import { breakersNamedBy, type CommandSeat } from '../src/breaker/command-scope.js';

const ANTHROPIC = 'https://api.anthropic.com';
const OTHER = 'https://gateway.example.test';

function breaker(kind: BreakerKind, subject: BreakerSubject): Breaker {
  return {
    key: breakerKey(kind, subject),
    kind,
    scope: subject.scope,
    seat: subject.scope === 'provider' ? null : subject.seat,
    upstream: subject.scope === 'provider' ? subject.upstream : null,
    model: subject.scope === 'seat' ? null : subject.model,
    phase: 'open',
    since: 0,
    until: 60_000,
    reset_at: null,
    cooldown_ms: 60_000,
    failed_probes: 0,
    refused_count: 0,
    skipped_count: 0,
    claimed_at: null,
    signal: null,
  };
}

const seatA: CommandSeat = { id: 'seat-a', upstream: ANTHROPIC, models: ['sonnet-x', 'opus-x'] };

const all = [
  breaker('credit', { scope: 'seat', seat: 'seat-a' }),
  breaker('rate_limit', { scope: 'seat', seat: 'seat-a' }),
  breaker('errors', { scope: 'model', seat: 'seat-a', model: 'opus-x' }),
  breaker('quota', { scope: 'model', seat: 'seat-a', model: 'sonnet-x' }),
  // the provider layer of a model seat-a serves through its upstream
  breaker('errors', { scope: 'provider', upstream: ANTHROPIC, model: 'sonnet-x' }),
  // not seat-a's: another seat, a model seat-a does not serve, another upstream
  breaker('credit', { scope: 'seat', seat: 'seat-b' }),
  breaker('errors', { scope: 'model', seat: 'seat-b', model: 'sonnet-x' }),
  breaker('errors', { scope: 'provider', upstream: ANTHROPIC, model: 'haiku-x' }),
  breaker('errors', { scope: 'provider', upstream: OTHER, model: 'sonnet-x' }),
];

const keys = (bs: Breaker[]) => bs.map((b) => b.key);

describe('which breakers a reset or probe names', () => {
  it('a seat: its seat-wide breakers, its targets’ breakers and the provider breakers of its models on its upstream', () => {
    // seat-wide first, then model by model in the seat's order, each in TRIP_REASON_ORDER
    expect(keys(breakersNamedBy([...all].reverse(), seatA))).toEqual([
      'credit:seat-a',
      'rate_limit:seat-a',
      'quota:seat-a/sonnet-x',
      `errors:provider:${ANTHROPIC}/sonnet-x`,
      'errors:seat-a/opus-x',
    ]);
  });

  it('a seat whose only trouble is a provider breaker still names it', () => {
    const onlyProvider = [breaker('errors', { scope: 'provider', upstream: ANTHROPIC, model: 'opus-x' })];
    expect(keys(breakersNamedBy(onlyProvider, seatA))).toEqual([`errors:provider:${ANTHROPIC}/opus-x`]);
  });

  it('a target: its own breakers and the provider breaker covering it, never the seat-wide ones', () => {
    expect(keys(breakersNamedBy(all, seatA, 'sonnet-x'))).toEqual(['quota:seat-a/sonnet-x', `errors:provider:${ANTHROPIC}/sonnet-x`]);
    expect(keys(breakersNamedBy(all, seatA, 'opus-x'))).toEqual(['errors:seat-a/opus-x']);
  });
});
