import { describe, expect, it } from 'vitest';
import { buildDemoConfig, makeDemoKeys } from '../../src/demo/config.js';
import { DEFAULT_SCENARIO_FILE, loadScenario } from '../../src/demo/scenario/load.js';
import type { Scenario } from '../../src/demo/scenario/schema.js';

async function defaultScenario(): Promise<Scenario> {
  const loaded = await loadScenario(DEFAULT_SCENARIO_FILE);
  if (!loaded.ok) throw new Error('the default scenario does not load');
  return loaded.scenario;
}

const paths = { socket: '/tmp/x/control.sock', decisionLog: '/tmp/x/decisions.ndjson' };

describe('the demo config', () => {
  it('is a routeplane config the real schema accepts, with time divided by speed', async () => {
    const scenario = await defaultScenario();
    const keys = makeDemoKeys(scenario);
    const urls = new Map([
      ['seat-a', 'http://127.0.0.1:1001'],
      ['seat-b', 'http://127.0.0.1:1002'],
      ['seat-c', 'http://127.0.0.1:1003/v1'],
    ]);
    const result = buildDemoConfig(scenario, 'default.yaml', urls, keys, paths, 4);
    if (!result.ok) throw new Error(JSON.stringify(result.issues));
    const config = result.config;
    expect(config.server.listen).toBe('127.0.0.1:0');
    expect(config.control.socket).toBe(paths.socket);
    expect(config.decision_log.path).toBe(paths.decisionLog);
    expect(config.influence).toEqual({
      enabled: true,
      cooldown_secs: 2,
      max_cooldown_secs: 15,
      trip_threshold: 3,
      window_secs: 7.5,
      // the v2 keys keep their defaults
      max_quota_secs: 604_800,
      trip_on_rejected_key: true,
      state_file: null,
      shared: null,
    });
    expect(config.seats.map((s) => [s.id, s.provider, s.base_url])).toEqual([
      ['seat-a', 'anthropic', 'http://127.0.0.1:1001'],
      ['seat-b', 'anthropic', 'http://127.0.0.1:1002'],
      ['seat-c', 'openai', 'http://127.0.0.1:1003/v1'],
    ]);
    expect(config.routes.find((r) => r.model === 'gpt')?.chain).toEqual([
      { seat: 'seat-c', model: 'gpt-5', weight: 1, cost_per_mtok: null, price: null },
      { seat: 'seat-c', model: 'gpt-5-mini', weight: 1, cost_per_mtok: null, price: null },
    ]);
  });

  it('gives each key seat its own fake key, only in the environment handed to the daemon', async () => {
    const scenario = await defaultScenario();
    const keys = makeDemoKeys(scenario);
    const keySeats = scenario.seats.filter((s) => s.auth === 'key');
    expect(keySeats.map((s) => s.id)).toEqual(['seat-a', 'seat-c']);
    const values = keySeats.map((s) => keys.env[keys.envNameOf.get(s.id)!]);
    expect(new Set(values).size).toBe(2);
    expect(values[0]).toMatch(/^sk-ant-demo-/);
    expect(values[1]).toMatch(/^sk-demo-/);
    expect(Object.keys(keys.env)).toHaveLength(2);
    for (const name of Object.keys(keys.env)) expect(process.env[name]).toBeUndefined();
  });

  it("the Claude login seat passes the agents' own login through: no key for it, the agents' login is what it accepts", async () => {
    const scenario = await defaultScenario();
    const keys = makeDemoKeys(scenario);
    const login = keys.loginOf.get('anthropic')!;
    expect(login).toMatch(/^sk-ant-oat01-demo-/);
    expect(keys.loginOf.has('openai')).toBe(false);
    expect(keys.keyOf.get('seat-b')).toBe(login);
    expect(keys.envNameOf.has('seat-b')).toBe(false);
    expect(Object.values(keys.env)).not.toContain(login);
    const urls = new Map(scenario.seats.map((s) => [s.id, 'http://127.0.0.1:1']));
    const result = buildDemoConfig(scenario, 'default.yaml', urls, keys, paths, 1);
    if (!result.ok) throw new Error(JSON.stringify(result.issues));
    expect(result.config.seats.map((s) => [s.id, s.auth ?? null, s.api_key_env ?? null])).toEqual([
      ['seat-a', null, keys.envNameOf.get('seat-a')],
      ['seat-b', 'passthrough', null],
      ['seat-c', null, keys.envNameOf.get('seat-c')],
    ]);
  });

  it('keeps the cooldown ceiling at the daemon floor of 1 s when sped up a lot', async () => {
    const scenario = await defaultScenario();
    const keys = makeDemoKeys(scenario);
    const urls = new Map(scenario.seats.map((s) => [s.id, 'http://127.0.0.1:1']));
    const result = buildDemoConfig(scenario, 'default.yaml', urls, keys, paths, 200);
    if (!result.ok) throw new Error(JSON.stringify(result.issues));
    expect(result.config.influence.max_cooldown_secs).toBe(1);
    expect(result.config.influence.cooldown_secs).toBe(0.04);
  });
});
