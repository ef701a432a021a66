import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { connectControl } from '../../src/client/control-client.js';
import {
  askSonnet,
  assertBuilt,
  CLI,
  startFakeUpstream,
  startServe,
  writeDaemonConfig,
  type DaemonSetup,
  type FakeUpstream,
  type RunningServe,
} from './support/real-daemon.js';
import { TmuxSession } from './support/tmux.js';

/**
 * The built CLI in a real terminal (tmux 100×30) against a real daemon whose
 * first seat is a Claude subscription: it reports its 5-hour window on every
 * answer and, once the window is spent, answers 429 with
 * `anthropic-ratelimit-unified-status: rejected` and the reset. Needs
 * `pnpm build` first. One session walks the story in order: top waits for a
 * daemon, shows the gauge, the sparkline and the quota's reset, is explored
 * with Tab, ↑, Enter, probes with P, refuses a held R a second confirm,
 * shows the daemon's history when started again, goes stale when the daemon
 * stops and comes back when it restarts.
 */
let upstream: FakeUpstream;
let setup: DaemonSetup;
let daemon: RunningServe | null = null;
let tmux: TmuxSession | null = null;

beforeAll(async () => {
  assertBuilt();
  upstream = await startFakeUpstream({ seatA: 'subscription' });
  setup = writeDaemonConfig(upstream.url, 120);
  tmux = new TmuxSession(join(setup.dir, 'tmux.sock'), 100, 30);
  tmux.start({ TERM: 'xterm-256color', LANG: 'C.UTF-8' });
  await tmux.waitFor('e2e$');
}, 60_000);

afterAll(async () => {
  tmux?.kill();
  await daemon?.stop();
  await upstream?.close();
  setup?.remove();
});

function screen(): TmuxSession {
  if (!tmux) throw new Error('tmux did not start');
  return tmux;
}

const rowOf = (text: string, pattern: RegExp) => text.split('\n').find((l) => pattern.test(l)) ?? '';
/** The chains panel rows for route sonnet: the route's row and the one after it. */
function sonnetChain(text: string): string[] {
  const lines = text.split('\n');
  const at = lines.findIndex((l) => /^.sonnet /.test(l));
  return at === -1 ? [] : lines.slice(at, at + 2);
}

async function ask(times: number): Promise<void> {
  for (let i = 0; i < times; i += 1) {
    const response = await askSonnet(daemon!.url);
    expect(response.status).toBe(200);
    await response.arrayBuffer();
  }
}

test('started before the daemon, top waits for it and connects when it appears', async () => {
  screen().type(`node ${CLI} top --socket ${setup.socketPath}`, true);
  await screen().waitFor(`waiting for the daemon at ${setup.socketPath}`);
  daemon = await startServe(setup);
  const live = await screen().waitFor('● live');
  expect(sonnetChain(live)[0]).toMatch(/● healthy +max-a\/claude-sonnet-4-5/);
});

test("the seat's usage window shows as a gauge, and its attempts as a sparkline", async () => {
  await ask(3);
  // usage travels in snapshots: top takes a fresh one every few seconds while decisions arrive
  const gauge = await screen().waitFor(/max-a .*5h \[\|{6}·{4}\] 62% resets 2h1[45]m/);
  expect(rowOf(gauge, /^ max-a /)).toMatch(/^ max-a +[·▁▂▃▄▅▆▇█]{24} +5h /);
  expect(rowOf(gauge, /^ max-a /)).toMatch(/[▁▂▃▄▅▆▇█]/);
});

test('a spent 5h window trips a quota breaker that shows the reset, not a cooldown', async () => {
  upstream.window = { ...upstream.window, utilization: 1.01, spent: true };
  await ask(1);
  const tripped = await screen().waitFor((s) => /✗ quota +max-a\/claude-sonnet-4-5 +resets in 2h1[45]m/.test(sonnetChain(s)[1] ?? ''));
  expect(sonnetChain(tripped)[0]).toMatch(/● healthy +team-b\/claude-sonnet-4-5/);
  const seat = rowOf(await screen().waitFor(/max-a .*101%/), /^ max-a /);
  expect(seat).toMatch(/✗ quota +resets \d\d:\d\d \(in 2h1[45]m\)/);
  // the failed attempt's bucket is drawn in dots, not only in another colour
  expect(seat).toMatch(/[⣀⣤⣶⣿]/);
  await screen().waitFor('max-a 429 → team-b/claude-sonnet-4-5 ok');
});

test('Tab, ↑ and Enter explore the log and explain a decision; Esc closes it, G follows again', async () => {
  screen().key('Tab');
  await screen().waitFor('Enter explains');
  screen().key('Up');
  const held = await screen().waitFor('PAUSED');
  expect(rowOf(held, /^›/)).toContain('sonnet');
  screen().key('Down');
  await screen().waitFor((s) => rowOf(s, /^›/).includes('max-a 429 → team-b'));
  screen().key('Enter');
  const explained = await screen().waitFor('─ DECISION ');
  expect(explained).toMatch(/route +sonnet/);
  // every attempt with its outcome, evidence and signal, the header that set the reset included (wrapped, not cut)
  expect(explained).toMatch(/1 max-a\/claude-sonnet-4-5 +429 +quota .*429 rate_limit_error/);
  expect(explained).toContain('(anthropic-ratelimit-unified-reset)');
  expect(explained).toMatch(/served +team-b\/claude-sonnet-4-5 · status 200/);
  screen().key('Escape');
  await screen().waitFor((s) => s.includes('─ DECISIONS') && !s.includes('─ DECISION '));
  screen().key('G');
  await screen().waitFor('following');
  screen().key('Tab');
  await screen().waitFor('Tab log');
});

test('P makes the quota probe-ready now, after a confirm that names it', async () => {
  for (let i = 0; i < 12 && !/^›max-a /m.test(screen().capture()); i += 1) {
    const before = rowOf(screen().capture(), /^›/);
    screen().key('j');
    await screen().waitFor((s) => rowOf(s, /^›/) !== before);
  }
  screen().key('P');
  await screen().waitFor('Make seat max-a probe-ready now (quota)?');
  screen().key('y');
  await screen().waitFor('✓ probe max-a: 1 made probe-ready (quota)');
  await screen().waitFor(/◌ quota +max-a\/claude-sonnet-4-5 +probe ready/);
});

test('a held R opens one confirm; answered, the next R within the guard opens none', async () => {
  // R right after the probe's `y` is inside that guard too: press until the guard has passed
  await openWithR();
  // A held key arrives as separate key presses, tens of milliseconds apart. On a busy machine the
  // check can lose its meaning two ways: typing takes longer than the guard, or top reads several
  // presses at once and takes them as one unknown key (a read of `Rn` answers nothing, one of `R?`
  // tests nothing). `?` comes last: help shows only if `n`, the R after it and `?` each came
  // alone and that R opened no second confirm. When help does not show: back to the panes, and
  // try again; a guard that lets the R through fails every try.
  for (let attempt = 1; ; attempt += 1) {
    if (attempt > 1) await openWithR();
    const startedAt = Date.now();
    for (const key of ['R', 'R', 'n', 'R']) screen().key(key);
    const tookMs = Date.now() - startedAt;
    screen().key('?');
    const help = await screen()
      .waitFor('HELP', 3_000)
      .catch(() => null);
    if ((help === null || tookMs > 350) && attempt < 3) {
      await backToPanes();
      continue;
    }
    expect(
      help,
      `no help after R R n R ?: the R after n opened a second confirm, or n never answered\n${screen().capture()}`,
    ).not.toBeNull();
    screen().key('Escape');
    const after = await screen().waitFor('CHAINS');
    expect(after).not.toContain('CONFIRM');
    expect(after).toContain('reset all cancelled: nothing was changed');
    break;
  }
  // and the breakers were left alone
  const client = await connectControl(setup.socketPath);
  try {
    const snapshot = await client.request('snapshot');
    expect(snapshot.breakers.map((b) => b.key)).toEqual(['quota:max-a']);
  } finally {
    client.close();
  }
});

/** Closes help or answers a confirm with `n`, and waits for the panes. */
async function backToPanes(): Promise<void> {
  const now = screen().capture();
  if (now.includes('HELP')) screen().key('Escape');
  else if (now.includes('CONFIRM')) screen().key('n');
  await screen().waitFor((s) => s.includes('CHAINS') && !s.includes('CONFIRM'));
}

/** Presses R until its confirm opens: within the guard after the last confirm, R does nothing. */
async function openWithR(): Promise<void> {
  for (let i = 0; i < 20; i += 1) {
    screen().key('R');
    const opened = await screen()
      .waitFor('Reset EVERY breaker on every seat?', 200)
      .catch(() => null);
    if (opened) return;
  }
  throw new Error(`R never opened its confirm:\n${screen().capture()}`);
}

test('started again, top shows the daemon history at once', async () => {
  screen().key('q');
  await screen().waitFor((s) => !s.includes('CHAINS') && /e2e\$ *$/m.test(s));
  screen().type(`node ${CLI} top --socket ${setup.socketPath}`, true);
  const again = await screen().waitFor('● live');
  expect(again).not.toContain('waiting for requests');
  const history = await screen().waitFor('max-a 429 → team-b/claude-sonnet-4-5 ok');
  expect(history).toMatch(/max-a\/claude-sonnet-4-5 ok/);
});

test('the daemon stops: countdowns stop and say stale, the pid is the last one seen; restarted, live again within 3 s', async () => {
  // the next request claims the probe; the window is still spent, so the quota trips again with its reset
  await ask(1);
  await screen().waitFor(/✗ quota +max-a\/claude-sonnet-4-5 +resets in 2h1[45]m/);
  await daemon!.stop();
  const down = await screen().waitFor((s) => s.includes('✗ disconnected — ') && s.includes('(stale)'));
  expect(down).toMatch(/last seen pid \d+/);
  expect(down).not.toMatch(/daemon \S+ pid/);
  expect(down).toContain('max-a/claude-sonnet-4-5'); // the last state stays on screen
  daemon = await startServe(setup);
  const restartedAt = daemon.listeningAt;
  const live = await screen().waitFor(/● live/, 10_000);
  expect(Date.now() - restartedAt).toBeLessThanOrEqual(3000);
  expect(live).not.toContain('(stale)');
  expect(live).toMatch(/up \ds /); // a fresh snapshot of the new daemon
});

test('q quits, restores the screen and gives the shell prompt back (exit 0)', async () => {
  screen().key('q');
  const after = await screen().waitFor((s) => !s.includes('CHAINS') && /e2e\$ *$/m.test(s));
  expect(after).not.toContain('DECISIONS');
  screen().type('echo "top exited $?"', true);
  await screen().waitFor('top exited 0');
});

test('on a dumb terminal, top prints the plain snapshot and exits 0', async () => {
  screen().type(`clear; TERM=dumb node ${CLI} top --socket ${setup.socketPath}; echo "dumb exited $?"`, true);
  const printed = await screen().waitFor('dumb exited 0');
  expect(printed).toContain('CHAINS (order a request tries now)');
  // the restarted daemon starts with no breakers (they live in its memory)
  expect(printed).toMatch(/^ sonnet +● healthy +max-a\/claude-sonnet-4-5$/m);
  expect(printed).toContain('SEATS (breakers and usage)');
  expect(printed).not.toContain('● live');
});
