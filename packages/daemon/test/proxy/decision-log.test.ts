import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { DecisionEvent, UnstampedEvent } from '@routeplane/shared';
import { DecisionLog } from '../../src/decision-log.js';
import { EventBus } from '../../src/events/bus.js';
import { DECISION_DEFAULTS } from '../control/sample-events.js';

let dir: string | null = null;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = null;
});

function decision(i: number): UnstampedEvent {
  return {
    type: 'decision',
    request_id: `req-${i}`,
    route: 'gpt',
    family: 'openai',
    stream: false,
    chain: [{ seat: 'a', model: 'm', state: 'healthy', reason: null, pinned: false, left_ms: null }],
    attempts: [{ seat: 'a', model: 'm', outcome: 'ok', status: 200, ms: 3, evidence: 'ok', signal: null, retry: 0 }],
    served_by: 'a/m',
    status: 200,
    duration_ms: 4,
    fail_open: false,
    ...DECISION_DEFAULTS,
  };
}

function lines(text: string): DecisionEvent[] {
  return text
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as DecisionEvent);
}

describe('decision log', () => {
  it('creates its directory and appends each decision as one NDJSON line; other events are not written', async () => {
    dir = await mkdtemp(join(tmpdir(), 'rp-dlog-'));
    const path = join(dir, 'nested', 'deeper', 'decisions.ndjson');
    const bus = new EventBus();
    const log = new DecisionLog(path, 1024 * 1024, bus, () => {});
    for (let i = 0; i < 5; i++) bus.emit(decision(i));
    bus.emit({
      type: 'breaker',
      action: 'tripped',
      scope: 'seat_credit',
      seat: 'a',
      model: null,
      reason: 'http_402',
      cooldown_ms: 1000,
      until: 1,
      failed_probes: 0,
      key: 'credit:a',
      breaker: null,
      signal: null,
      origin: 'test:1',
    });
    await log.close();
    const written = lines(await readFile(path, 'utf8'));
    expect(written.map((d) => d.request_id)).toEqual(['req-0', 'req-1', 'req-2', 'req-3', 'req-4']);
    expect(written.every((d) => d.type === 'decision' && typeof d.seq === 'number')).toBe(true);
    expect(bus.listenerCount).toBe(0);
  });

  it('appends to an existing file across restarts', async () => {
    dir = await mkdtemp(join(tmpdir(), 'rp-dlog-'));
    const path = join(dir, 'decisions.ndjson');
    for (const round of [0, 1]) {
      const bus = new EventBus();
      const log = new DecisionLog(path, 1024 * 1024, bus, () => {});
      bus.emit(decision(round));
      await log.close();
    }
    expect(lines(await readFile(path, 'utf8')).map((d) => d.request_id)).toEqual(['req-0', 'req-1']);
  });

  it('rotates to PATH.1 when the file would pass max bytes', async () => {
    dir = await mkdtemp(join(tmpdir(), 'rp-dlog-'));
    const path = join(dir, 'decisions.ndjson');
    const now = 1_700_000_000_000;
    const lineBytes = Buffer.byteLength(JSON.stringify({ ...decision(0), seq: 1, ts: now })) + 1;
    const maxBytes = lineBytes * 3 + 10;
    const bus = new EventBus(() => now);
    const log = new DecisionLog(path, maxBytes, bus, () => {});
    // one at a time, so each write sees the size the previous one left
    for (let i = 0; i < 5; i++) {
      bus.emit(decision(i));
      await log.flushed();
    }
    await log.close();
    const current = lines(await readFile(path, 'utf8'));
    const rotated = lines(await readFile(`${path}.1`, 'utf8'));
    expect((await stat(path)).size).toBeLessThanOrEqual(maxBytes);
    expect((await stat(`${path}.1`)).size).toBeLessThanOrEqual(maxBytes);
    expect([...rotated, ...current].map((d) => d.request_id)).toEqual(['req-0', 'req-1', 'req-2', 'req-3', 'req-4']);
  });

  it('keeps decision_log.keep rotated files, .1 the newest; the oldest is dropped past them', async () => {
    dir = await mkdtemp(join(tmpdir(), 'rp-dlog-'));
    const path = join(dir, 'decisions.ndjson');
    const now = 1_700_000_000_000;
    const lineBytes = Buffer.byteLength(JSON.stringify({ ...decision(0), seq: 1, ts: now })) + 1;
    // one decision per file: each one after the first rotates
    const bus = new EventBus(() => now);
    const log = new DecisionLog(path, lineBytes + 5, bus, () => {}, 2);
    for (let i = 0; i < 5; i++) {
      bus.emit(decision(i));
      await log.flushed();
    }
    await log.close();
    const ids = async (file: string) => lines(await readFile(file, 'utf8')).map((d) => d.request_id);
    expect(await ids(`${path}.2`)).toEqual(['req-2']);
    expect(await ids(`${path}.1`)).toEqual(['req-3']);
    expect(await ids(path)).toEqual(['req-4']);
    await expect(stat(`${path}.3`)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('a log that cannot be written says so once and never throws into the bus', async () => {
    dir = await mkdtemp(join(tmpdir(), 'rp-dlog-'));
    const blocker = join(dir, 'file');
    await writeFile(blocker, 'x'); // a file where the log's directory should be
    const messages: string[] = [];
    const bus = new EventBus();
    const log = new DecisionLog(join(blocker, 'decisions.ndjson'), 1024, bus, (m) => messages.push(m));
    expect(() => {
      bus.emit(decision(0));
      bus.emit(decision(1));
    }).not.toThrow();
    await log.close();
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatch(/^decision log: cannot write .*decisions\.ndjson \(E[A-Z]+\)/);
  });
});
