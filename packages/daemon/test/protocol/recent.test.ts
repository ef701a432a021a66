import { RECENT_MAX } from '@routeplane/shared';
import { afterEach, describe, expect, it } from 'vitest';
import { LineClient } from '../control/line-client.js';
import { startTestDaemon, type TestDaemon } from '../helpers/test-daemon.js';

/**
 * `recent` against a real daemon (the last ≤ 500 decisions, from a ring the
 * daemon keeps): n decisions when n are asked
 * for, the ring's whole content (never more than 500) when more are asked
 * for, and a bad request for n < 1. The decisions are unknown-model 404s:
 * each is a real request with a real decision and no upstream to wait for.
 */
let t: TestDaemon | null = null;
let client: LineClient | null = null;
afterEach(async () => {
  client?.close();
  client = null;
  await t?.close();
  t = null;
});

async function daemon(): Promise<{ t: TestDaemon; client: LineClient }> {
  t = await startTestDaemon({
    // nothing is ever sent upstream: every request names a model no route has
    seats: [{ id: 'a', provider: 'anthropic', upstream: 'http://127.0.0.1:9' }],
    routes: [{ model: 'sonnet', chain: [{ seat: 'a', model: 'sonnet-x' }] }],
    decisionLog: false,
  });
  client = await LineClient.connect(t.daemon.socketPath);
  return { t, client };
}

/** `count` decisions, `from` numbering their models; a few requests in flight at once. */
async function decide(d: TestDaemon, count: number, from = 0): Promise<void> {
  const lanes = 8;
  await Promise.all(
    Array.from({ length: lanes }, async (_, lane) => {
      for (let i = lane; i < count; i += lanes) {
        const res = await d.post('/v1/messages', { model: `no-such-${from + i}`, max_tokens: 1, messages: [] });
        expect(res.status).toBe(404);
        await res.arrayBuffer();
      }
    }),
  );
  await expect.poll(() => d.events.events.filter((e) => e.type === 'decision').length).toBe(from + count);
}

const models = (reply: { result: { decisions: Array<{ requested: string }> } }) => reply.result.decisions.map((d) => d.requested);

describe('recent over the control socket', () => {
  it('answers the last n decisions, oldest first; all of them without n', async () => {
    const { t, client } = await daemon();
    await decide(t, 1);
    await decide(t, 1, 1);
    await decide(t, 1, 2);
    expect(models(await client.request('recent', { n: 2 }))).toEqual(['no-such-1', 'no-such-2']);
    expect(models(await client.request('recent', { n: 1 }))).toEqual(['no-such-2']);
    expect(models(await client.request('recent'))).toEqual(['no-such-0', 'no-such-1', 'no-such-2']);
  });

  it('n over 500 is not an error: it gets the ring, which never holds more than 500', async () => {
    const { t, client } = await daemon();
    await decide(t, 3);
    const few = await client.request('recent', { n: 1000 });
    expect(few.ok).toBe(true);
    expect(few.result.decisions).toHaveLength(3);

    await decide(t, RECENT_MAX - 3 + 2, 3); // 502 in all: the two oldest have left the ring
    const reply = await client.request('recent', { n: 1000 });
    expect(reply.ok).toBe(true);
    expect(reply.result.decisions).toHaveLength(RECENT_MAX);
    const seqs = reply.result.decisions.map((d: { seq: number }) => d.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    const all = t.events.events.filter((e) => e.type === 'decision').map((e) => e.seq);
    expect(seqs).toEqual(all.slice(-RECENT_MAX));
  });

  it.each([0, -1])('n = %i is a bad request naming n, and the connection stays usable', async (n) => {
    const { client } = await daemon();
    const reply = await client.request('recent', { n });
    expect(reply.ok).toBe(false);
    expect(reply.error.code).toBe('bad_request');
    expect(reply.error.message).toMatch(/^n: /);
    expect((await client.request('hello')).ok).toBe(true);
  });

  it('a malformed request of a known command is a bad request, not an unknown command', async () => {
    const { client } = await daemon();
    for (const [cmd, extra] of [
      ['probe', {}],
      ['recent', { n: 'ten' }],
      ['reload', { now: true }],
    ] as const) {
      const reply = await client.request(cmd, extra);
      expect(reply.error.code, cmd).toBe('bad_request');
    }
    const unknown = await client.request('nonsense');
    expect(unknown.error).toMatchObject({ code: 'unknown_command' });
    expect(unknown.error.message).toContain('probe, recent, reload');
  });
});
