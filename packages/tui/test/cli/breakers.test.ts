import { beforeAll, describe, expect, it } from 'vitest';
import { connectControl } from '../../src/client/control-client.js';
import { tripAll } from '../../../daemon/test/control/tripped-daemon.js';
import { isolatedEnv, requireBuiltCli, runCli } from '../../../daemon/test/helpers/cli-process.js';
import { trippedDaemonFor } from './tripped-daemon-per-test.js';
import { writeClientConfig } from './client-config.js';

beforeAll(requireBuiltCli);

async function openBreakers(socket: string): Promise<string[]> {
  const client = await connectControl(socket);
  try {
    const status = await client.request('status');
    return status.open.map((b) => `${b.scope}:${b.seat}/${b.model ?? '*'}`).sort();
  } finally {
    client.close();
  }
}

// Each case has a daemon and HOME of its own: the cases run side by side.
describe.concurrent('routeplane breakers reset', () => {
  it('prints exactly the two lines of the spec and clears every breaker', async (test) => {
    const { d, home, socket } = await trippedDaemonFor(test);
    await tripAll(d.t);
    const result = await runCli(['breakers', 'reset', '--socket', socket], isolatedEnv(home), home);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toBe('● routing-influence breakers reset\n  cleared   3 breaker(s)\n');
    expect(await openBreakers(socket)).toEqual([]);
  });

  it('clears one seat with --seat, one target with --seat --model, found through --config', async (test) => {
    const { d, home, socket } = await trippedDaemonFor(test);
    await tripAll(d.t);
    const config = writeClientConfig(home, { socket });
    const env = isolatedEnv(home);

    const target = await runCli(['breakers', 'reset', '--config', config, '--seat', 'team', '--model', 'haiku-x'], env, home);
    expect(target.stdout).toBe('● routing-influence breakers reset\n  cleared   1 breaker(s)\n');
    expect(await openBreakers(socket)).toEqual(['seat_credit:max-a/*', 'seat_rate_limit:rl/*']);

    const seat = await runCli(['breakers', 'reset', '--config', config, '--seat', 'rl'], env, home);
    expect(seat.stdout).toBe('● routing-influence breakers reset\n  cleared   1 breaker(s)\n');
    expect(await openBreakers(socket)).toEqual(['seat_credit:max-a/*']);
  });

  it('says so, verbatim, when routing influence is disabled, and exits 0', async (test) => {
    const { home, socket } = await trippedDaemonFor(test, false);
    const result = await runCli(['breakers', 'reset', '--socket', socket], isolatedEnv(home), home);
    expect(result).toEqual({ code: 0, signal: null, stdout: 'routing influence is disabled (no breakers to reset)\n', stderr: '' });
  });

  it('names an unknown seat or target in one line and exits 1', async (test) => {
    const { home, socket } = await trippedDaemonFor(test);
    const env = isolatedEnv(home);
    const seat = await runCli(['breakers', 'reset', '--socket', socket, '--seat', 'nope'], env, home);
    expect(seat.code).toBe(1);
    expect(seat.stdout).toBe('');
    // the seats it could have meant, so the next try is the right one
    expect(seat.stderr).toBe('routeplane: unknown seat "nope" (seats: max-a, team, rl)\n');

    const target = await runCli(['breakers', 'reset', '--socket', socket, '--seat', 'team', '--model', 'nope-model'], env, home);
    expect(target.code).toBe(1);
    expect(target.stderr).toBe('routeplane: unknown target "team/nope-model" (its models: sonnet-x, haiku-x)\n');
  });

  it('refuses --model without --seat as bad input', async (test) => {
    const { home, socket } = await trippedDaemonFor(test);
    const result = await runCli(['breakers', 'reset', '--socket', socket, '--model', 'x'], isolatedEnv(home), home);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--model needs --seat');
  });
});
