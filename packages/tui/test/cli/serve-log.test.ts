import type { BreakerEvent } from '@routeplane/shared';
import { readRedisUrl } from '@routeplane/shared';
import { describe, expect, it } from 'vitest';
import { ServeLog, type ServeLogFormat } from '../../src/output/serve-log.js';
import { redisWhere, type StartFacts, startLines } from '../../src/output/serve-start.js';

const facts: StartFacts = {
  configPath: '/etc/rp/routeplane.yaml',
  httpUrl: 'http://127.0.0.1:4141',
  socketPath: '/run/rp/control.sock',
  decisionLog: null,
  influence: { enabled: false, cooldown_secs: 60, max_cooldown_secs: 900, trip_threshold: 3, window_secs: 300 },
  store: { kind: 'memory', stateFile: null },
  restored: null,
  warnings: ['/etc/rp/routeplane.yaml: warning: influence.enabled: routing influence is off (line 9)'],
};

describe("serve's start lines", () => {
  it('name the file, URL, socket, decision log, influence, store, then the warnings', () => {
    expect(startLines(facts)).toEqual([
      'config     /etc/rp/routeplane.yaml',
      'listening  http://127.0.0.1:4141',
      'control    /run/rp/control.sock',
      'decisions  not recorded (decision_log.path: false)',
      'influence  off (no breakers: chains route in configured order)',
      'store      memory',
      '/etc/rp/routeplane.yaml: warning: influence.enabled: routing influence is off (line 9)',
    ]);
  });

  it('a state file: the store says where, and what was restored from it is one line', () => {
    const lines = startLines({
      ...facts,
      store: { kind: 'memory', stateFile: '/var/rp/breakers.json' },
      restored: { count: 2, from: '/var/rp/breakers.json' },
      warnings: [],
    });
    expect(lines.slice(-2)).toEqual([
      'store      memory, saved to /var/rp/breakers.json',
      'restored 2 breaker(s) from /var/rp/breakers.json',
    ]);
  });

  it('a Redis store by host, port and database, never the user in its URL', () => {
    const url = readRedisUrl('rediss://team@redis.internal:6380/2');
    expect(url.ok).toBe(true);
    const where = url.ok ? redisWhere(url.endpoint) : '';
    expect(where).toBe('rediss://redis.internal:6380/2');
    const lines = startLines({ ...facts, store: { kind: 'redis', url: where, state: 'degraded', daemons: 1 }, warnings: [] });
    expect(lines.at(-1)).toBe('store      redis rediss://redis.internal:6380/2 (degraded)');
  });
});

describe("serve's stderr", () => {
  const trip: BreakerEvent = {
    type: 'breaker',
    seq: 1,
    ts: Date.UTC(2025, 11, 1, 14, 2, 11),
    action: 'tripped',
    scope: 'seat_credit',
    seat: 'a',
    model: null,
    reason: 'http_402 billing_error',
    cooldown_ms: 60_000,
    until: null,
    failed_probes: 0,
    key: 'credit:a',
    breaker: null,
    signal: null,
    origin: 'h:1',
  };
  function log(format: ServeLogFormat, quiet: boolean) {
    const out: string[] = [];
    const l = new ServeLog({ format, quiet, write: (t) => out.push(t), now: () => trip.ts, schedule: () => () => {} });
    return { l, out };
  }

  it('before the start a daemon line is said as it is; after it, with the time; counts are not transitions', () => {
    const { l, out } = log('text', false);
    l.line('routeplane: state file x is empty: moved it aside', 'error');
    l.start({ ...facts, warnings: [] }, 'h:1');
    l.line('reloaded /etc/rp/routeplane.yaml (no changes)', 'info');
    l.event({ ...trip, action: 'refused', reason: 'failed while open' });
    l.event(trip);
    expect(out.join('').split('\n')).toEqual([
      'routeplane: state file x is empty: moved it aside',
      ...startLines({ ...facts, warnings: [] }),
      expect.stringMatching(/^\d\d:\d\d:\d\d reloaded \/etc\/rp\/routeplane\.yaml \(no changes\)$/),
      expect.stringMatching(/^\d\d:\d\d:\d\d tripped credit a \(http_402 billing_error\)$/),
      '',
    ]);
  });

  it('--log json: the start, the lines and the events as NDJSON', () => {
    const { l, out } = log('json', false);
    l.start(facts, 'h:1');
    l.line('reload refused: f: seats: is required', 'error');
    l.event(trip);
    const parsed = out.map((t) => JSON.parse(t));
    expect(parsed.map((e) => e.type)).toEqual(['start', 'log', 'breaker']);
    expect(parsed[1]).toEqual({ type: 'log', ts: trip.ts, level: 'error', message: 'reload refused: f: seats: is required' });
    expect(parsed[2]).toEqual(trip);
  });

  it('--quiet: only errors, in either format', () => {
    for (const format of ['text', 'json'] as const) {
      const { l, out } = log(format, true);
      l.start(facts, 'h:1');
      l.line('reloaded f (no changes)', 'info');
      l.event(trip);
      l.line('shared breaker store degraded (timeout)', 'error');
      expect(out).toHaveLength(1);
      expect(out[0]).toContain('shared breaker store degraded (timeout)');
    }
  });
});
