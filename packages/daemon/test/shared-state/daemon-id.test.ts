import { hostname } from 'node:os';
import type { HelloResult } from '@routeplane/shared';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultDaemonId } from '../../src/store/daemon-id.js';
import { LineClient } from '../control/line-client.js';
import { startTwoSeats, type TwoSeats } from '../helpers/two-seats.js';

/** Each daemon's id is `HOSTNAME:PID`, the short host name; `hello` carries it. */

let fx: TwoSeats | null = null;
afterEach(async () => {
  await fx?.close();
  fx = null;
});

describe('the daemon id', () => {
  it('is the host name up to its first dot, a colon, and the pid', () => {
    expect(defaultDaemonId('build-7.ci.example.com', 4242)).toBe('build-7:4242');
    expect(defaultDaemonId('laptop.local', 1)).toBe('laptop:1');
    expect(defaultDaemonId('laptop', 31337)).toBe('laptop:31337');
  });

  it('a daemon started without one takes it from this machine and process; hello says it', async () => {
    fx = await startTwoSeats();
    const expected = `${hostname().split('.')[0]}:${process.pid}`;
    expect(fx.t.context.daemonId).toBe(expected);
    const client = await LineClient.connect(fx.t.daemon.socketPath);
    try {
      const { result } = (await client.request('hello')) as { result: HelloResult };
      expect(result.daemon_id).toBe(expected);
      expect(result.daemon_id).not.toContain('.');
    } finally {
      client.close();
    }
  });
});
