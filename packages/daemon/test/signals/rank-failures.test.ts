import type { Signal } from '@routeplane/shared';
import { describe, expect, it } from 'vitest';
import type { Evidence } from '../../src/signals/evidence.js';
import { answerToRelay } from '../../src/signals/rank-failures.js';
import { NOW } from './fixtures.js';

/** The answer the agent gets when every attempt failed. */

const S: Signal = { status: 500, type: null, code: null, header: null, message: null };
const credit: Evidence = { class: 'credit', signal: S };
const keyRejected: Evidence = { class: 'key_rejected', signal: S };
const request: Evidence = { class: 'request', signal: S };
const modelError: Evidence = { class: 'model_error', signal: S };
const quota = (resetAt: number): Evidence => ({ class: 'quota', cover: 'seat', resetAt, signal: S });
const rateLimit = (waitMs: number | null): Evidence => ({ class: 'rate_limit', waitMs, signal: S });

/** attempts in the order they were made, each with a label to find it by */
function attempts(...list: Array<[label: string, evidence: Evidence, at?: number]>) {
  return list.map(([label, evidence, at]) => ({ label, evidence, at: at ?? NOW }));
}

const pick = (list: ReturnType<typeof attempts>) => answerToRelay(list)?.label;

describe('which failed answer the agent gets', () => {
  it('nothing to pick from', () => {
    expect(answerToRelay([])).toBeNull();
  });

  it('follows the order rate_limit, model_error, request, key_rejected, quota, credit — whatever the attempt order', () => {
    const all = attempts(
      ['credit', credit],
      ['quota', quota(NOW + 1)],
      ['key', keyRejected],
      ['request', request],
      ['model', modelError],
      ['rate', rateLimit(60_000)],
    );
    const order: string[] = [];
    let left = all;
    while (left.length > 0) {
      const chosen = pick(left)!;
      order.push(chosen);
      left = left.filter((a) => a.label !== chosen);
    }
    expect(order).toEqual(['rate', 'model', 'request', 'key', 'quota', 'credit']);
  });

  it("a sibling's 5xx beats the 402 of a seat already known to be dead (the last attempt)", () => {
    expect(pick(attempts(['b', modelError], ['a', credit]))).toBe('b');
  });

  it('rate limits: the earliest deadline, counted from when each answer came', () => {
    expect(pick(attempts(['long', rateLimit(30_000)], ['short', rateLimit(5_000)]))).toBe('short');
    // 10 s asked 20 s after a 25 s one: deadlines NOW+25s vs NOW+30s
    expect(pick(attempts(['first', rateLimit(25_000), NOW], ['later', rateLimit(10_000), NOW + 20_000]))).toBe('first');
  });

  it('rate limits: no stated wait and a wait under 1 s both hold the 1 s floor: a tie, the earliest attempt wins', () => {
    expect(pick(attempts(['none', rateLimit(null)], ['half', rateLimit(500)]))).toBe('none');
    expect(pick(attempts(['half', rateLimit(500)], ['none', rateLimit(null)]))).toBe('half');
    expect(pick(attempts(['two', rateLimit(2_000)], ['none', rateLimit(null)]))).toBe('none');
  });

  it('quotas: the earliest reset', () => {
    expect(pick(attempts(['week', quota(NOW + 7 * 86_400_000)], ['hours', quota(NOW + 3_600_000)]))).toBe('hours');
  });

  it('ties go to the earliest attempt', () => {
    expect(pick(attempts(['a', modelError], ['b', modelError], ['c', modelError]))).toBe('a');
    expect(pick(attempts(['a', quota(NOW + 5)], ['b', quota(NOW + 5)]))).toBe('a');
    expect(pick(attempts(['a', credit], ['b', keyRejected], ['c', credit]))).toBe('b');
  });

  it("returns the caller's own object, with what it keeps to relay", () => {
    const kept = [
      { evidence: credit, at: NOW, body: Buffer.from('402') },
      { evidence: modelError, at: NOW, body: Buffer.from('503') },
    ];
    expect(answerToRelay(kept)?.body.toString()).toBe('503');
  });
});
