import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { keyWhoseFirstIs, sessionTag } from '../../../daemon/test/policy-http/support.js';
import {
  assertBuilt,
  CLI,
  type DaemonSetup,
  type FakeUpstream,
  type RunningServe,
  startFakeUpstream,
  startServe,
  writeDaemonConfig,
} from './support/real-daemon.js';
import { TmuxSession } from './support/tmux.js';

/**
 * The built CLI in a real 80×24 terminal: three Claude Code sessions on a
 * `balance: spread` route over two seats, and `S` shows which seat each one
 * is on, in place of the seats panel; `?` lists the key. Needs `pnpm build`.
 */
let upstream: FakeUpstream;
let setup: DaemonSetup;
let daemon: RunningServe | null = null;
let tmux: TmuxSession | null = null;

const TARGETS = [
  { label: 'max-a/claude-sonnet-4-5', weight: 1 },
  { label: 'team-b/claude-sonnet-4-5', weight: 1 },
];
/** session keys whose rendezvous order puts these targets first */
const SESSIONS = [
  { key: keyWhoseFirstIs('max-a/claude-sonnet-4-5', TARGETS, 'first'), on: 'max-a/claude-sonnet-4-5' },
  { key: keyWhoseFirstIs('team-b/claude-sonnet-4-5', TARGETS, 'second'), on: 'team-b/claude-sonnet-4-5' },
  { key: keyWhoseFirstIs('max-a/claude-sonnet-4-5', TARGETS, 'third'), on: 'max-a/claude-sonnet-4-5' },
];

beforeAll(async () => {
  assertBuilt();
  upstream = await startFakeUpstream({ seatA: 'subscription' });
  setup = writeDaemonConfig(upstream.url, 120);
  const text = readFileSync(setup.configPath, 'utf8');
  writeFileSync(setup.configPath, text.replace('  - model: sonnet\n', '  - model: sonnet\n    balance: spread\n'));
  daemon = await startServe(setup);
  tmux = new TmuxSession(join(setup.dir, 'tmux.sock'), 80, 24);
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

async function ask(session: string): Promise<void> {
  const response = await fetch(`${daemon!.url}/v1/messages`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'anthropic-version': '2023-06-01',
      'user-agent': 'claude-cli/2.1.197 (external, cli)',
      'x-claude-code-session-id': session,
    },
    body: JSON.stringify({ model: 'sonnet', max_tokens: 8, messages: [{ role: 'user', content: 'hi' }] }),
  });
  expect(response.status).toBe(200);
  await response.arrayBuffer();
}

test('S shows each session of the last 10 minutes on the seat it went to, in place of the seats; S again, the seats', async () => {
  screen().type(`node ${CLI} top --socket ${setup.socketPath}`, true);
  await screen().waitFor('● live');
  for (const s of SESSIONS) await ask(s.key);
  await screen().waitFor((s) => (s.match(/ sonnet +200 /g) ?? []).length === 3);
  screen().key('S');
  const shown = await screen().waitFor((s) => s.includes('─ SESSIONS') && SESSIONS.every((x) => s.includes(sessionTag(x.key).slice(0, 8))));
  expect(shown).not.toContain('─ SEATS');
  const rows = shown.split('\n');
  for (const line of rows) expect(line.length).toBeLessThanOrEqual(80);
  for (const s of SESSIONS) {
    const row = rows.find((l) => l.startsWith(` ${sessionTag(s.key).slice(0, 8)} `)) ?? `(no row for ${s.key} in\n${shown})`;
    expect(row).toMatch(new RegExp(`^ [0-9a-f]{8} +claude-cli/2\\.1\\.197 +sonnet +${s.on} +1 req +\\d+s ago *$`));
  }
  screen().key('S');
  const back = await screen().waitFor('─ SEATS');
  expect(back).not.toContain('─ SESSIONS');
});

test('? lists the key', async () => {
  screen().key('?');
  let help = await screen().waitFor('HELP');
  // the help is longer than 24 rows: scroll until the key's row shows (its words wrap under themselves at 80 columns)
  const row = / S +sessions \(last 10 min\) in place of\s+the\s+seats,\s+and\s+back/;
  for (let i = 0; i < 60 && !row.test(help); i++) {
    const before = help;
    screen().key('j');
    help = await screen().waitFor((s) => s !== before);
  }
  expect(help).toMatch(row);
  screen().key('Escape');
  await screen().waitFor((s) => s.includes('CHAINS') && !s.includes('HELP'));
  screen().key('q');
  await screen().waitFor((s) => !s.includes('CHAINS') && /e2e\$ *$/m.test(s));
});
