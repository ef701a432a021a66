import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv, requireBuiltCli, runCli, tempHome } from '../../../daemon/test/helpers/cli-process.js';
import { T0, writeFixtureLog } from '../usage/fixture-log.js';

beforeAll(requireBuiltCli);

/**
 * `routeplane usage` as a person runs it, over the fixture decision log (two
 * rotated files, unreadable lines): the report on stdout, one warning line
 * per kind of trouble on stderr, and the refusals with their exit codes.
 */
const log = writeFixtureLog();
const home = tempHome();
afterAll(() => {
  log.remove();
  home.remove();
});

const config = (decisionLog: string, extra = '') => {
  const file = join(log.dir, `routeplane-${Math.random().toString(36).slice(2)}.yaml`);
  writeFileSync(
    file,
    [
      'seats: [{ id: max-1, provider: anthropic, base_url: "https://api.anthropic.com", api_key_env: NOT_NEEDED_BY_CLIENTS }]',
      'routes: [{ model: sonnet, chain: [{ seat: max-1, model: sonnet-5 }] }]',
      decisionLog,
      extra,
      '',
    ].join('\n'),
  );
  return file;
};
const env = isolatedEnv(home.dir, { TZ: 'UTC' });
const usage = (...args: string[]) => runCli(['usage', ...args], env, home.dir);

describe('routeplane usage', () => {
  it('--json: the report of the live and rotated files, one warning line for the unreadable ones, one for where the log starts', async () => {
    const file = config('decision_log: { path: decisions.ndjson, keep: 3 }', 'currency: eur');
    const result = await usage('--config', file, '--since', '2026-11-30', '--until', '2026-12-02', '--by', 'session', '--json');
    expect(result.code).toBe(0);
    expect(result.stderr.trimEnd().split('\n')).toEqual([
      'routeplane: skipped 1 unreadable line in decisions.ndjson.2, 3 in decisions.ndjson.1',
      'routeplane: the log starts at 2026-11-30 10:00; earlier requests are not counted',
    ]);
    const report = JSON.parse(result.stdout);
    expect(report).toMatchObject({ since: Date.UTC(2026, 10, 30), until: Date.UTC(2026, 11, 2), by: 'session', currency: 'EUR' });
    expect(report.rows.map((r: { key: string | null; requests: number }) => [r.key, r.requests])).toEqual([
      ['aaaa11112222', 3],
      ['bbbb33334444', 1],
      ['cccc55556666', 1],
      ['dddd77778888', 1],
      [null, 1],
    ]);
    expect(report.total).toMatchObject({ requests: 7, served: 5, failed: 2, failovers: 2, cost: 0.112375 });
  });

  it('the table fits 80 columns; a --since inside the log says nothing of where it starts', async () => {
    const file = config('decision_log: { path: decisions.ndjson }');
    const result = await usage('--config', file, '--since', `2026-11-30 10:00`, '--until', '2026-12-02');
    expect(result.code).toBe(0);
    expect(result.stderr).not.toContain('the log starts at');
    const lines = result.stdout.trimEnd().split('\n');
    for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(80);
    expect(lines[0]).toBe('usage by seat, 2026-11-30 10:00 → 2026-12-02 00:00, costs in USD');
    expect(lines.find((l) => l.startsWith('total'))).toMatch(/^total +7 +5 +2 +2 /);
    expect(result.stdout).not.toContain('\u001b[');
    expect(T0).toBe(Date.UTC(2026, 10, 30, 10));
  });

  it('decision_log.path: false says in one line that the log is off, and exits 1', async () => {
    const file = config('decision_log: { path: false }');
    const result = await usage('--config', file);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(`routeplane: the decision log is off (decision_log.path: false in ${file}): there is no usage to show\n`);
  });

  it('no log yet: says so and counts nothing', async () => {
    const file = config('decision_log: { path: nothing-here.ndjson }');
    const result = await usage('--config', file, '--json');
    expect(result.code).toBe(0);
    expect(result.stderr).toBe(`routeplane: no decision log at ${join(log.dir, 'nothing-here.ndjson')} yet: nothing is counted\n`);
    expect(JSON.parse(result.stdout)).toMatchObject({ rows: [], total: { requests: 0, cost: null } });
  });

  it.each([
    [['--since', 'yesterday'], /^routeplane: --since: expected a duration back from now \(30m, 24h, 7d\) or a local date or time/],
    [['--since', '1h', '--until', '2h'], /^routeplane: --since \(.*\) must be before --until \(.*\)$/],
    [['--by', 'colour'], /argument 'colour' is invalid\. Allowed choices are seat, target, route, agent, session, day/],
  ])('%j is a usage error: one line, exit 2', async (args, message) => {
    const result = await usage('--config', config('decision_log: { path: decisions.ndjson }'), ...args);
    expect(result.code).toBe(2);
    expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(result.stderr.trimEnd()).toMatch(message);
  });
});
