import type { OpenBreaker, Snapshot } from '@routeplane/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { connectControl } from '../../src/client/control-client.js';
import { tripAll } from '../../../daemon/test/control/tripped-daemon.js';
import { isolatedEnv, requireBuiltCli, runCli } from '../../../daemon/test/helpers/cli-process.js';
import { trippedDaemonPerTest } from './tripped-daemon-per-test.js';

beforeAll(requireBuiltCli);

const setup = trippedDaemonPerTest();

/** The open breakers a snapshot implies, in the status shape. */
function openFromSnapshot(snapshot: Snapshot): OpenBreaker[] {
  const open: OpenBreaker[] = [];
  for (const seat of snapshot.seats) {
    if (seat.credit) {
      open.push({
        scope: 'seat_credit',
        seat: seat.id,
        model: null,
        reason: 'credit',
        refused_count: seat.credit.refused_count,
        until: seat.credit.probe_ready_at,
      });
    }
    if (seat.rate_limit) {
      open.push({
        scope: 'seat_rate_limit',
        seat: seat.id,
        model: null,
        reason: 'rate_limit',
        refused_count: seat.rate_limit.refused_count,
        until: seat.rate_limit.until,
      });
    }
    for (const model of seat.models) {
      if (model.breaker) {
        open.push({
          scope: 'model',
          seat: seat.id,
          model: model.model,
          reason: 'model_errors',
          refused_count: model.breaker.refused_count,
          until: model.breaker.probe_ready_at,
        });
      }
    }
  }
  return open;
}

const byKey = (a: OpenBreaker, b: OpenBreaker) => `${a.scope}${a.seat}${a.model}`.localeCompare(`${b.scope}${b.seat}${b.model}`);

describe('routeplane status', () => {
  it('--json prints one JSON document whose open breakers match the snapshot', async () => {
    const { d, home, socket } = await setup();
    await tripAll(d.t);
    const client = await connectControl(socket);
    const snapshot = await client.request('snapshot');
    client.close();

    const result = await runCli(['status', '--json', '--socket', socket], isolatedEnv(home), home);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    const status = JSON.parse(result.stdout) as { now: number; open: OpenBreaker[] };
    expect(Object.keys(status).sort()).toEqual(['now', 'open']);
    expect(status.open).toHaveLength(3);
    expect([...status.open].sort(byKey)).toEqual(openFromSnapshot(snapshot).sort(byKey));
  });

  it('shows each open breaker on a row: scope, target, reason, refused attempts, time remaining', async () => {
    const { d, home, socket } = await setup();
    await tripAll(d.t);
    const result = await runCli(['status', '--socket', socket], isolatedEnv(home), home);
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe('● 3 open breakers — these targets route last until they recover');
    expect(lines[1]).toMatch(/^\s+SCOPE\s+TARGET\s+REASON\s+REFUSED\s+REMAINING$/);
    const rows = lines.slice(2);
    expect(rows).toHaveLength(3);
    const row = (text: string) => rows.find((r) => r.includes(text)) ?? '';
    expect(row('max-a (whole seat)')).toMatch(/seat credit\s+max-a \(whole seat\)\s+out of credit \(402\)\s+\d+\s+(10m00s|9m\d\ds)$/);
    expect(row('rl (whole seat)')).toMatch(/rate limit\s+rl \(whole seat\)\s+rate-limited \(429\)\s+\d+\s+(10m00s|9m\d\ds)$/);
    expect(row('team/haiku-x')).toMatch(/model\s+team\/haiku-x\s+failing \(5xx\/timeout\)\s+\d+\s+(10m00s|9m\d\ds)$/);
    // colour is off without a terminal and with NO_COLOR: no escape codes
    expect(result.stdout).not.toContain('\u001b[');
  });

  it('says all clear in one line when nothing is open, and names disabled influence', async () => {
    const { home, socket } = await setup();
    const clear = await runCli(['status', '--socket', socket], isolatedEnv(home), home);
    expect(clear.code).toBe(0);
    expect(clear.stdout).toBe('● all clear — no open breakers, every chain routes in configured order\n');
    const { home: home2, socket: socket2 } = await setup(false);
    const disabled = await runCli(['status', '--socket', socket2], isolatedEnv(home2), home2);
    expect(disabled.code).toBe(0);
    expect(disabled.stdout).toBe('○ routing influence is disabled — no breakers, chains route in configured order\n');
  });
});
