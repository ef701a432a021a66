// The cost a decision carries: computed once per decision when it is written
// (never per chunk) — the serving target's price looked up in its chain, then
// four multiplications. Measured alone, and as part of building and emitting
// the decision event, priced and unpriced, so the difference is what cost adds.
import { bench, describe } from 'vitest';
import type { Attempt, DecisionChainEntry, Price, Usage } from '../../packages/shared/src/index.js';
import { costOf } from '../../packages/shared/src/cost.js';
import { EventBus } from '../../packages/daemon/src/events/bus.js';
import { type DecisionFacts, emitDecision, servingTarget } from '../../packages/daemon/src/proxy/decision.js';
import type { PreparedTarget } from '../../packages/daemon/src/proxy/route-table.js';

const price: Price = { input: 3, output: 15, cache_read: 0.3, cache_write: 3.75 };
const usage: Usage = { input_tokens: 1_200, output_tokens: 340, cache_read_tokens: 52_000, cache_write_tokens: 2_100 };
const targets = ['work-max', 'personal', 'router'].map(
  (seat) => ({ seat, model: 'claude-sonnet-5', label: `${seat}/claude-sonnet-5`, price }) as unknown as PreparedTarget,
);
const chain: DecisionChainEntry[] = targets.map((t) => ({
  seat: t.seat,
  model: t.model,
  state: 'healthy',
  reason: null,
  pinned: false,
  left_ms: null,
}));
const attempts: Attempt[] = [
  { seat: 'work-max', model: 'claude-sonnet-5', outcome: 'http_429', status: 429, ms: 12, evidence: 'quota', signal: null, retry: 0 },
  { seat: 'personal', model: 'claude-sonnet-5', outcome: 'ok', status: 200, ms: 340, evidence: 'ok', signal: null, retry: 0 },
];

function facts(priced: boolean): DecisionFacts {
  return {
    requestId: 'rp-bench',
    route: 'sonnet',
    family: 'anthropic',
    stream: true,
    chain,
    attempts,
    servedBy: 'personal/claude-sonnet-5',
    status: 200,
    startedAt: performance.now() - 353,
    failOpen: false,
    requested: 'sonnet',
    agent: null,
    lane: 'foreground',
    session: '3f9a2c1b7d6e',
    balance: 'ordered',
    skipped: false,
    usage,
    price: priced ? (servingTarget(targets, 'personal/claude-sonnet-5', attempts)?.price ?? null) : null,
    plan: false,
    client: 'claude-cli/2.1.197',
  };
}

// a subscriber that keeps nothing, so the event is built and stamped as the daemon does
const bus = new EventBus();
bus.subscribe(() => {});

describe('cost on the decision', () => {
  bench('costOf: four parts of an Anthropic usage', () => {
    costOf(usage, price, 'anthropic', false);
  });

  bench('servingTarget (3-target chain) + costOf', () => {
    costOf(usage, servingTarget(targets, 'personal/claude-sonnet-5', attempts)?.price ?? null, 'anthropic', false);
  });

  bench('decision event built and emitted, unpriced target', () => {
    emitDecision(bus, facts(false));
  });

  bench('decision event built and emitted, priced target (lookup + cost)', () => {
    emitDecision(bus, facts(true));
  });
});
