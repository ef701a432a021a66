// What `/metrics` costs a request (goal 14): one decision counted the way the
// daemon's bus listener counts it, and the two histogram observations it makes
// per request (duration by route, first byte by seat) through prom-client.
import { createRequire } from 'node:module';
import { bench, describe } from 'vitest';
import type { DecisionEvent } from '../../packages/shared/src/index.js';
import { TrafficCounts } from '../../packages/daemon/src/metrics/traffic.js';

const decision = {
  type: 'decision',
  seq: 1,
  ts: 0,
  request_id: 'r',
  route: 'sonnet',
  family: 'anthropic',
  stream: true,
  chain: [],
  attempts: [{ seat: 'max-1', model: 'claude-sonnet-4-5', outcome: 'ok', status: 200, ms: 120, evidence: 'ok', signal: null, retry: 0 }],
  served_by: 'max-1/claude-sonnet-4-5',
  status: 200,
  duration_ms: 120,
  fail_open: false,
  requested: 'claude-sonnet-4-5-20250929',
  agent: null,
  lane: 'foreground',
  session: 'abcdef012345',
  balance: 'spread',
  skipped: false,
  usage: { input_tokens: 4, output_tokens: 388, cache_read_tokens: 26_384, cache_write_tokens: 1520 },
  client: 'claude-cli/2.1.197',
} as unknown as DecisionEvent;

// prom-client is the daemon's dependency, not the workspace root's
const { Histogram, Registry } = createRequire(new URL('../../packages/daemon/package.json', import.meta.url))(
  'prom-client',
) as typeof import('prom-client');
const counts = new TrafficCounts();
const registry = new Registry();
const buckets = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];
const duration = new Histogram({ name: 'd', help: 'd', labelNames: ['route', 'lane'], buckets, registers: [registry] }).labels(
  'sonnet',
  'foreground',
);
const firstByte = new Histogram({ name: 'f', help: 'f', labelNames: ['seat'], buckets, registers: [registry] }).labels('max-1');

describe('metrics', () => {
  bench('count one decision (requests, attempts, tokens)', () => {
    counts.decision(decision);
  });
  bench('observe the two histograms of one request', () => {
    duration.observe(0.12);
    firstByte.observe(0.012);
  });
});
