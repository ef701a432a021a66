/**
 * Live reload through `routeplane serve` and SIGHUP, with 50
 * requests in flight: none fails because of the reload, the ones in flight
 * finish on the chain they started with, new ones follow the new routes, the
 * breakers of what still exists are kept, and an invalid edit changes nothing
 * and says why on stderr.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LineClient } from '../control/line-client.js';
import { type CliProcess, isolatedEnv, requireBuiltCli, spawnCli, tempHome } from '../helpers/cli-process.js';
import { type Behaviour, respond, startFakeUpstream } from '../helpers/fake-upstream.js';

let cleanup: Array<() => Promise<unknown> | unknown> = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

/** Holds every request until `open()`; then answers as a chat completion. */
function gate(): { behaviour: Behaviour; open(): void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return {
    behaviour: async (req, res) => {
      await opened;
      respond.openaiChat()(req, res);
    },
    open,
  };
}

describe('reload by SIGHUP with requests in flight', () => {
  it('50 in flight finish on their chain, new ones follow the new routes, breakers kept; an invalid edit changes nothing', async () => {
    requireBuiltCli();
    const home = tempHome();
    cleanup.push(() => home.remove());
    const held = gate();
    const a = await startFakeUpstream(held.behaviour);
    const b = await startFakeUpstream(respond.openaiChat());
    const c = await startFakeUpstream(respond.status(402));
    cleanup.push(
      () => held.open(),
      () => a.close(),
      () => b.close(),
      () => c.close(),
    );
    const file = join(home.dir, 'routeplane.yaml');
    const write = (routes: string[]) =>
      writeFileSync(
        file,
        [
          'server: { listen: "127.0.0.1:0" }',
          'control: { socket: rp.sock }',
          'decision_log: { path: false }',
          'seats:',
          `  - { id: a, provider: openai, base_url: "${a.url}", api_key_env: KA }`,
          `  - { id: b, provider: openai, base_url: "${b.url}", api_key_env: KB }`,
          `  - { id: c, provider: openai, base_url: "${c.url}", api_key_env: KC }`,
          'routes:',
          ...routes,
          'influence: { enabled: true, cooldown_secs: 600 }',
          '',
        ].join('\n'),
      );
    write([
      '  - { model: gpt, chain: [{ seat: a, model: m }] }',
      '  - { model: dead, chain: [{ seat: c, model: m }, { seat: b, model: m }] }',
    ]);
    const serve: CliProcess = spawnCli(
      ['serve', '--config', file],
      isolatedEnv(home.dir, { KA: 'sk-a-reload', KB: 'sk-b-reload', KC: 'sk-c-reload' }),
      home.dir,
    );
    cleanup.push(() => serve.kill());
    const { url, socket } = await serve.listening();
    const post = (model: string) =>
      fetch(`${url}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model, messages: [] }),
      });

    // a breaker to keep: seat c out of credit
    expect((await post('dead')).headers.get('x-routeplane-target')).toBe('b/m');
    // 50 requests held at seat a
    const inFlight = Array.from({ length: 50 }, () => post('gpt'));
    while (a.requests.length < 50) await a.nextRequest();

    write([
      '  - { model: gpt, chain: [{ seat: b, model: m }] }',
      '  - { model: dead, chain: [{ seat: c, model: m }, { seat: b, model: m }] }',
      '  - { model: fresh, chain: [{ seat: b, model: m2 }] }',
    ]);
    serve.child.kill('SIGHUP');
    await serve.until(() => /reloaded .*routes \+fresh ~gpt/.test(serve.stderr), 'the reloaded line');
    const now = await post('gpt');
    expect(now.status).toBe(200);
    expect(now.headers.get('x-routeplane-target')).toBe('b/m');
    expect((await post('fresh')).headers.get('x-routeplane-target')).toBe('b/m2');

    held.open();
    const answers = await Promise.all(inFlight);
    expect(answers.map((r) => r.status)).toEqual(Array(50).fill(200));
    expect(new Set(answers.map((r) => r.headers.get('x-routeplane-target')))).toEqual(new Set(['a/m']));

    const client = await LineClient.connect(socket);
    cleanup.push(() => client.close());
    const { result: snapshot } = await client.request('snapshot');
    expect(snapshot.breakers.map((x: { key: string }) => x.key)).toEqual(['credit:c']);

    // an invalid edit: refused whole, said on stderr, and the running config stands
    writeFileSync(file, 'seats: [ { id: a } ]\nroutes: []\n');
    serve.child.kill('SIGHUP');
    await serve.until(() => /reload refused: .*seats\[0\]\.provider/.test(serve.stderr), 'the refused line');
    expect((await post('fresh')).headers.get('x-routeplane-target')).toBe('b/m2');
    expect(serve.stderr).not.toContain('sk-');
  });
});
