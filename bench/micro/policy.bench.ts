// Routing policy: `balance: spread` costs ≤ 5 µs per request over `ordered`.
// One iteration is the policy work a request does after its body is scanned:
// its session key (the decision records the key's tag whatever the balance,
// so both sides pay it) and its base order — the configured order for
// `ordered`, the rendezvous order for `spread` (a SHA-256 per target). Three
// targets, Claude Code's session header, as the README's config runs it.
import { randomUUID } from 'node:crypto';
import { afterAll, bench, describe } from 'vitest';
import { prepareRendezvous } from '../../packages/daemon/src/policy/rendezvous.js';
import { sessionOf } from '../../packages/daemon/src/policy/session-key.js';
import { scanTopLevel } from '../../packages/daemon/src/proxy/top-level-scan.js';
import { claudeCodeBody } from '../lib/agent-bodies.mjs';

const targets = [
  { seat: 'max-1', model: 'claude-sonnet-4-5', weight: 1 },
  { seat: 'max-2', model: 'claude-sonnet-4-5', weight: 1 },
  { seat: 'max-3', model: 'claude-sonnet-4-5', weight: 1 },
];
const entries = targets.map((t, index) => ({ index, seat: t.seat, model: t.model }));
const rendezvous = prepareRendezvous(targets);

const { body, session } = claudeCodeBody(110 * 1024) as { body: Buffer; session: string };
const scan = scanTopLevel(body);
if (scan.kind !== 'object') throw new Error('policy bench: the Claude Code body did not scan');
const spans = { metadata: scan.metadata, promptCacheKey: scan.promptCacheKey };
const withHeader = { 'x-claude-code-session-id': session, 'user-agent': 'claude-cli/2.1.197 (external, cli)' };
const noHeader = { 'user-agent': 'claude-cli/2.1.197 (external, cli)' };
const noSession = { 'user-agent': 'OpenAI/JS 6.49.0' };
const plainBody = Buffer.from('{"model":"sonnet","messages":[]}');
const plainSpans = { metadata: null, promptCacheKey: null };

/** What a request's base order depends on; read at the end so the work is not optimised away. */
let sink = 0;

describe('policy', () => {
  bench('ordered: session key + configured order, 3 targets', () => {
    const s = sessionOf(withHeader, 'anthropic', body, spans);
    sink += entries.length + (s?.tag.length ?? 0);
  });

  bench('spread: session key + rendezvous order, 3 targets', () => {
    const s = sessionOf(withHeader, 'anthropic', body, spans);
    const order = rendezvous.order(s?.key ?? randomUUID()).map((i) => entries[i]!);
    sink += order.length + (s?.tag.length ?? 0);
  });

  bench('spread, key from the body (metadata.user_id, no header), 3 targets', () => {
    const s = sessionOf(noHeader, 'anthropic', body, spans);
    const order = rendezvous.order(s?.key ?? randomUUID()).map((i) => entries[i]!);
    sink += order.length + (s?.tag.length ?? 0);
  });

  bench('spread, no session (a fresh random key), 3 targets', () => {
    const s = sessionOf(noSession, 'anthropic', plainBody, plainSpans);
    const order = rendezvous.order(s?.key ?? randomUUID()).map((i) => entries[i]!);
    sink += order.length + (s?.tag.length ?? 0);
  });
});

afterAll(() => {
  if (sink === 0) throw new Error('policy bench: nothing was ordered');
});
