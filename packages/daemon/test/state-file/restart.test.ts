import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Breaker, parseStateFile } from '@routeplane/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Behaviour, respond, startFakeUpstream } from '../helpers/fake-upstream.js';
import { requireBuiltCli, tempHomeFor } from '../helpers/cli-process.js';
import { seatKey, type ServeConfig, type Served, serve, stateFileLines, stop, writeConfig } from './served.js';

/**
 * `influence.state_file` across a real restart of `routeplane serve`:
 * one breaker of every kind
 * and scope, SIGTERM, start again — the snapshot's breakers are what they
 * were, minus what the rules drop when the config changed.
 */

beforeAll(requireBuiltCli);

/** What each seat's key gets from the one upstream they all share (so two of them make a provider layer). */
function answers(): Behaviour {
  const inAnHour = String(Math.floor(Date.now() / 1000) + 3600);
  const window = (claim: string) =>
    respond.status(429, {
      'anthropic-ratelimit-unified-status': 'rejected',
      'anthropic-ratelimit-unified-reset': inAnHour,
      'anthropic-ratelimit-unified-representative-claim': claim,
    });
  const bySeat: Record<string, Behaviour> = {
    // an upstream that echoes the key: what the file keeps of its answer must not
    cr: respond.json(402, { type: 'error', error: { type: 'billing_error', message: `key ${seatKey('cr')} is out of credit` } }),
    qs: window('five_hour'),
    qt: window('seven_day_opus'),
    rl: respond.rateLimited('600'),
    kr: respond.status(401),
    er: respond.status(500),
    p1: respond.status(500),
    p2: respond.status(500),
  };
  return (req, res) => {
    const seat = Object.keys(bySeat).find((id) => req.headers['x-api-key'] === seatKey(id));
    return (seat === undefined ? respond.status(400) : bySeat[seat]!)(req, res);
  };
}

function config(base: string, statePath: string, without: { seats?: string[]; routes?: string[] } = {}): ServeConfig {
  const seatIds = ['cr', 'qs', 'qt', 'rl', 'kr', 'er', 'p1', 'p2'].filter((id) => !without.seats?.includes(id));
  const routes = [
    { model: 'cr', chain: [{ seat: 'cr', model: 'sonnet-x' }] },
    { model: 'qs', chain: [{ seat: 'qs', model: 'sonnet-x' }] },
    { model: 'qt', chain: [{ seat: 'qt', model: 'opus-x' }] },
    { model: 'rl', chain: [{ seat: 'rl', model: 'sonnet-x' }] },
    { model: 'kr', chain: [{ seat: 'kr', model: 'sonnet-x' }] },
    { model: 'err', chain: [{ seat: 'er', model: 'err-x' }] },
    {
      model: 'prov',
      chain: [
        { seat: 'p1', model: 'prov-x' },
        { seat: 'p2', model: 'prov-x' },
      ],
    },
  ]
    .filter((r) => !without.routes?.includes(r.model))
    .map((r) => ({ ...r, chain: r.chain.filter((t) => seatIds.includes(t.seat)) }));
  return {
    seats: seatIds.map((id) => ({ id, provider: 'anthropic' as const, base_url: base })),
    routes,
    influence: { enabled: true, cooldown_secs: 600, max_cooldown_secs: 900, trip_threshold: 2, state_file: statePath },
  };
}

async function ask(s: Served, route: string): Promise<void> {
  const res = await fetch(`${s.url}/v1/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model: route, max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] }),
  });
  await res.arrayBuffer();
}

const keys = (bs: Breaker[]) => bs.map((b) => b.key).sort();

// Each case has its own upstream, HOME and state file: the two run side by side.
describe.concurrent('routeplane serve with influence.state_file, restarted', () => {
  it('every kind comes back after SIGTERM as it was; a changed config drops what it no longer has', async (test) => {
    const up = await startFakeUpstream(answers());
    test.onTestFinished(() => up.close());
    const home = tempHomeFor(test);
    mkdirSync(join(home.dir, 'state'));
    const statePath = join(home.dir, 'state', 'breakers.json');
    const cfg = config(up.url, statePath);
    const file = writeConfig(home.dir, cfg);

    const first = await serve(home.dir, file, cfg.seats);
    test.onTestFinished(() => first.cli.kill());
    expect(await stateFileLines(first)).toEqual([`restored 0 breaker(s) from ${statePath}`]);
    for (const route of ['cr', 'qs', 'qt', 'rl', 'kr', 'err', 'err', 'prov', 'cr']) await ask(first, route);
    const PROVIDER = `errors:provider:${up.url}/prov-x`;
    const every = ['credit:cr', PROVIDER, 'errors:er/err-x', 'key_rejected:kr', 'quota:qs', 'quota:qt/opus-x', 'rate_limit:rl'].sort();
    // the last `cr` was refused while open: wait for its coalesced count to be announced
    await test.expect
      .poll(async () => {
        const snap = await first.command('snapshot');
        return [keys(snap.breakers), snap.breakers.find((b: Breaker) => b.key === 'credit:cr')?.refused_count];
      })
      .toEqual([every, 1]);
    const before = await first.command('snapshot');
    await stop(first);

    const text = readFileSync(statePath, 'utf8');
    const saved = parseStateFile(JSON.parse(text));
    expect(saved.ok && keys(saved.state.breakers)).toEqual(every);
    expect(text).toContain('is out of credit');
    expect(text).not.toContain(seatKey(''));
    // p1 and p2 failed once each on their own: streaks that must survive too
    const streakOf = (snap: typeof before, seat: string, model: string) =>
      snap.seats.find((s: { id: string }) => s.id === seat).models.find((m: { model: string }) => m.model === model).streak;
    expect([streakOf(before, 'p1', 'prov-x'), streakOf(before, 'p2', 'prov-x')]).toEqual([1, 1]);

    const second = await serve(home.dir, file, cfg.seats);
    test.onTestFinished(() => second.cli.kill());
    expect(await stateFileLines(second)).toEqual([`restored 7 breaker(s) from ${statePath}`]);
    expect((await second.command('hello')).restored).toBe(7);
    const after = await second.command('snapshot');
    expect(after.breakers).toEqual(before.breakers);
    // usage is what the providers last said (its extra-usage word too): seen again after a restart, never saved
    const withoutUsage = (seats: Array<Record<string, unknown>>) => seats.map(({ usage: _usage, ...seat }) => seat);
    expect(withoutUsage(after.seats)).toEqual(withoutUsage(before.seats));
    expect(after.routes).toEqual(before.routes);
    await stop(second);

    // kr is gone, route err is gone (seat er stays, its target does not), p2 is gone (p1 keeps the provider layer)
    const smaller = config(up.url, statePath, { seats: ['kr', 'p2'], routes: ['kr', 'err'] });
    writeConfig(home.dir, smaller);
    const third = await serve(home.dir, file, smaller.seats);
    test.onTestFinished(() => third.cli.kill());
    expect(await stateFileLines(third)).toEqual([`restored 5 breaker(s) from ${statePath}`]);
    const kept = (await third.command('snapshot')).breakers;
    expect(kept).toEqual(before.breakers.filter((b: Breaker) => b.key !== 'key_rejected:kr' && b.key !== 'errors:er/err-x'));
    await stop(third);
  });

  it('a state file that is a directory is moved aside with one line; serve starts clean, listening line first', async (test) => {
    const up = await startFakeUpstream(answers());
    test.onTestFinished(() => up.close());
    const home = tempHomeFor(test);
    const statePath = join(home.dir, 'breakers.json');
    mkdirSync(statePath);
    const cfg = config(up.url, statePath);
    const s = await serve(home.dir, writeConfig(home.dir, cfg), cfg.seats);
    test.onTestFinished(() => s.cli.kill());
    const [moved, restored, rest] = await stateFileLines(s);
    expect(moved).toMatch(
      new RegExp(
        `^routeplane: state file ${statePath} is a directory, not a file: moved it to ${statePath}\\.corrupt-\\d{13}, starting with no breakers$`,
      ),
    );
    expect(restored).toBe(`restored 0 breaker(s) from ${statePath}`);
    expect(rest).toBeUndefined();
    // said before the start lines, as the daemon found it
    expect(s.cli.stderr.startsWith(moved!)).toBe(true);
    expect((await s.command('snapshot')).breakers).toEqual([]);
    await stop(s);
  });
});
