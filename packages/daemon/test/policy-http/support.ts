/**
 * What the policy-over-HTTP tests share: the routing formulas written again
 * from their rules (independently of the daemon's code, so a test compares
 * the daemon with the rule, not with itself), and small request helpers.
 */
import { createHash } from 'node:crypto';
import type { DecisionEvent } from '@routeplane/shared';
import { expect } from 'vitest';
import type { TestDaemon } from '../helpers/test-daemon.js';

/** A decision's `session`: the first 12 hex digits of SHA-256 of the key, never the key. */
export function sessionTag(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex').slice(0, 12);
}

/**
 * The weighted rendezvous order of `targets` (`seat/model` and weight) for
 * key `k`: `h = SHA-256(k + "\n" + t)`, `u` = the first 8 bytes big-endian
 * plus 0.5 over 2^64, `score = -ln(u) / weight`, ascending, ties in
 * configured order. Plain doubles: the tests' keys are far from ties.
 */
export function rendezvousOrder(key: string, targets: ReadonlyArray<{ label: string; weight: number }>): string[] {
  return targets
    .map((t, i) => {
      const n = createHash('sha256').update(`${key}\n${t.label}`, 'utf8').digest().readBigUInt64BE(0);
      const u = (Number(n) + 0.5) / 2 ** 64;
      return { label: t.label, i, score: -Math.log(u) / t.weight };
    })
    .sort((a, b) => a.score - b.score || a.i - b.i)
    .map((s) => s.label);
}

/** A key (from `prefix-0`, `prefix-1`, …) whose rendezvous order puts `first` first. */
export function keyWhoseFirstIs(first: string, targets: ReadonlyArray<{ label: string; weight: number }>, prefix = 'session'): string {
  for (let i = 0; i < 10_000; i++) {
    const key = `${prefix}-${i}`;
    if (rendezvousOrder(key, targets)[0] === first) return key;
  }
  throw new Error(`no key puts ${first} first`);
}

export const CHAT = '/v1/chat/completions';
export const MESSAGES = '/v1/messages';

export function chat(model: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { model, messages: [{ role: 'user', content: 'hi' }], ...extra };
}

export function message(model: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { model, max_tokens: 16, messages: [{ role: 'user', content: 'hi' }], ...extra };
}

/** The response, its JSON body and the request's decision. */
export interface Exchanged {
  res: Response;
  // biome-ignore lint/suspicious/noExplicitAny: loosely typed for assertions
  body: any;
  decision: DecisionEvent;
}

/** POSTs, reads the body whole, and takes the request's decision (matched by request id). */
export async function exchange(t: TestDaemon, path: string, body: unknown, headers: Record<string, string> = {}): Promise<Exchanged> {
  const res = await t.post(path, body, headers);
  const text = await res.text();
  const id = res.headers.get('x-routeplane-request-id');
  const decision = await t.events.take((e): e is DecisionEvent => e.type === 'decision' && e.request_id === id);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = text;
  }
  return { res, body: parsed, decision };
}

/** A daemon-made refusal: the status, nothing sent upstream, a decision with no attempt. */
export function expectRefused(x: Exchanged, status: number): void {
  expect(x.res.status).toBe(status);
  expect(x.res.headers.get('x-routeplane-attempts')).toBe('0');
  expect(x.res.headers.get('x-routeplane-target')).toBeNull();
  expect(x.decision.status).toBe(status);
  expect(x.decision.attempts).toEqual([]);
  expect(x.decision.served_by).toBeNull();
}
