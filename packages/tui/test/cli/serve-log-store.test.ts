/**
 * `serve --log json` says a store change once (the same as the text log,
 * as NDJSON events instead): the `store` event, not also the daemon's own
 * line about it. A real daemon and a real redis-server that goes away and
 * comes back; the daemon's lines and events go through serve's log as
 * `serve` wires them.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validateConfig } from '@routeplane/shared';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startDaemon } from '../../../daemon/src/start.js';
import { startRedis } from '../../../daemon/test/shared-state/redis-server.js';
import { ServeLog, type ServeLogFormat } from '../../src/output/serve-log.js';
import { type StartFacts, startLines } from '../../src/output/serve-start.js';

let cleanup: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

const FACTS: StartFacts = {
  configPath: '/etc/rp/routeplane.yaml',
  httpUrl: 'http://127.0.0.1:0',
  socketPath: '/tmp/x.sock',
  decisionLog: null,
  influence: { enabled: true, cooldown_secs: 60, max_cooldown_secs: 900, trip_threshold: 3, window_secs: 300 },
  store: { kind: 'redis', url: 'redis://127.0.0.1/0', state: 'degraded', daemons: 1 },
  restored: null,
  warnings: [],
};

/**
 * `serve` with a Redis that is down when it starts (the store goes degraded
 * during the start), then comes back (ok) and goes away again (degraded),
 * both after the start. Returns what serve wrote, from the start on.
 */
async function serveThroughOutages(format: ServeLogFormat, quiet = false): Promise<{ beforeStart: string[]; afterStart: string[] }> {
  const out: string[] = [];
  const log = new ServeLog({ format, quiet, write: (t) => out.push(t), now: Date.now, schedule: () => () => {} });
  const redis = await startRedis();
  cleanup.push(() => redis.stop());
  await redis.kill();
  const dir = await mkdtemp(join(tmpdir(), 'routeplane-serve-log-'));
  cleanup.push(() => rm(dir, { recursive: true, force: true }));
  const env = { RP_SERVE_LOG_KEY: 'sk-serve-log-test' };
  const checked = validateConfig(
    {
      seats: [{ id: 'a', provider: 'openai', base_url: 'http://127.0.0.1:9', api_key_env: 'RP_SERVE_LOG_KEY' }],
      routes: [{ model: 'gpt', chain: [{ seat: 'a', model: 'm' }] }],
      influence: { enabled: true, shared: { redis_url: redis.url, key_prefix: `serve-log-${process.pid}:` } },
      decision_log: { path: false },
    },
    'test-config',
    env,
  );
  if (!checked.ok) throw new Error(checked.issues.map((i) => i.message).join('; '));
  // as `serve` wires it: the daemon's lines (with their topic), the start, then its events
  const daemon = await startDaemon(checked.config, {
    env,
    listen: '127.0.0.1:0',
    socketPath: join(dir, 'control.sock'),
    decisionLogPath: false,
    log: (line, level, topic) => log.line(line, level, topic),
  });
  cleanup.push(() => daemon.close(2_000));
  log.start(FACTS, daemon.context.daemonId);
  const beforeStart = out.splice(0);
  const unsubscribe = daemon.context.bus.subscribe((e) => log.event(e));
  cleanup.push(async () => unsubscribe());

  await redis.restart();
  await vi.waitFor(() => expect(daemon.context.store.info().state).toBe('ok'), { timeout: 10_000 });
  await redis.kill();
  await vi.waitFor(() => expect(daemon.context.store.info().state).toBe('degraded'), { timeout: 10_000 });
  // the line and the event of one change are written in one go: nothing is still on its way
  const afterStart = out.join('').split('\n').filter(Boolean);
  return { beforeStart: beforeStart.join('').split('\n').filter(Boolean), afterStart };
}

const startLineCount = (format: ServeLogFormat) => (format === 'json' ? 1 : startLines(FACTS).length);

describe('a store change in serve’s log', () => {
  it('--log json: one line per change, the store event (before the start, when no events are written yet, the line)', async () => {
    const { beforeStart, afterStart } = await serveThroughOutages('json');
    expect(beforeStart.map((l) => JSON.parse(l))).toEqual([
      expect.objectContaining({ type: 'log', level: 'error', message: expect.stringContaining('shared breaker store degraded') }),
      expect.objectContaining({ type: 'start' }),
    ]);
    const parsed = afterStart.map((l) => JSON.parse(l) as { type: string; store?: { state: string } });
    expect(parsed).toEqual([
      expect.objectContaining({ type: 'store', store: expect.objectContaining({ kind: 'redis', state: 'ok' }) }),
      expect.objectContaining({ type: 'store', store: expect.objectContaining({ kind: 'redis', state: 'degraded' }) }),
    ]);
  });

  it('text: one line per change, the daemon’s own (it says why)', async () => {
    const { beforeStart, afterStart } = await serveThroughOutages('text');
    expect(beforeStart).toHaveLength(1 + startLineCount('text'));
    expect(beforeStart[0]).toMatch(/^shared breaker store degraded \(.+\)/);
    expect(afterStart).toEqual([
      expect.stringMatching(/^\d\d:\d\d:\d\d shared breaker store ok: /),
      expect.stringMatching(/^\d\d:\d\d:\d\d shared breaker store degraded \(.+\)/),
    ]);
  });

  it('--log json --quiet: no events are written, so the error line is the one said', async () => {
    const { beforeStart, afterStart } = await serveThroughOutages('json', true);
    const parsed = [...beforeStart, ...afterStart].map((l) => JSON.parse(l) as object);
    expect(parsed).toEqual([
      expect.objectContaining({ type: 'log', level: 'error', message: expect.stringContaining('shared breaker store degraded') }),
      expect.objectContaining({ type: 'log', level: 'error', message: expect.stringContaining('shared breaker store degraded') }),
    ]);
  });
});
