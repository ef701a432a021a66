import { createConnection } from 'node:net';
import { describe, expect } from 'vitest';
import { isBreaker } from '../helpers/events.js';
import { ControlledStream, respond, type Behaviour, type RecordedRequest } from '../helpers/fake-upstream.js';
import { readUntil } from '../helpers/read-stream.js';
import { expectServedAgainByA, hostileIt as it, streakOfA, type HostileFixture } from '../helpers/hostile-fixture.js';
import { CLOSE_BOUND_MS, within } from '../helpers/bounded-wait.js';
import { errorHeadersThenSilence, headersThenSilence } from '../helpers/hostile-behaviours.js';

/**
 * Agents hang up at every moment of a request (spec: "agent hung up / aborted
 * stream: none; the upstream request is cancelled; stop"): the upstream
 * request is cancelled (its connection closes — the fake upstream never
 * closes it by itself), the hang-up is not evidence about the upstream, a
 * probe claimed by the request is released (not failed), the decision says
 * 499 / aborted, nothing fails over, and the daemon serves the next request.
 */

interface Moment {
  name: string;
  /** which route the agent asks for */
  route: 'main' | 'solo';
  /** how a (and b) behave for the hung-up request */
  setup(fx: HostileFixture): { stream: ControlledStream | null };
  /** resolves when the request has reached the moment; returns the upstream request that must be cancelled */
  reach(fx: HostileFixture, pending: Promise<Response>, stream: ControlledStream | null): Promise<RecordedRequest>;
  /** a's status in the aborted attempt: null when no response headers had arrived (either is allowed when the race is real) */
  statuses: Array<number | null>;
  /** which seat's request was cancelled */
  cancelled: 'a' | 'b';
  /** whether the agent's fetch had resolved (the daemon sends its status line with the first body chunk) */
  agentHadHeaders: boolean;
}

function use(fx: HostileFixture, behaviour: Behaviour): void {
  fx.a.setDefault(behaviour);
}

const MOMENTS: Moment[] = [
  {
    name: 'before the upstream sent headers',
    route: 'main',
    setup: (fx) => (use(fx, respond.hang()), { stream: null }),
    reach: (fx) => fx.a.nextRequest(),
    statuses: [null],
    cancelled: 'a',
    agentHadHeaders: false,
  },
  {
    name: 'after the upstream sent headers, before any body byte',
    route: 'main',
    setup: (fx) => (use(fx, headersThenSilence()), { stream: null }),
    // the upstream has flushed its headers; whether the daemon parsed them before the hang-up is a real race
    reach: (fx) => fx.a.nextRequest(),
    statuses: [null, 200],
    cancelled: 'a',
    agentHadHeaders: false,
  },
  {
    name: 'after the agent got the headers, before it read the body',
    route: 'main',
    setup: (fx) => {
      const stream = new ControlledStream();
      use(fx, stream.behaviour);
      return { stream };
    },
    async reach(fx, pending, stream) {
      await stream!.started;
      stream!.write('data: {"n":1}\n\n');
      const res = await pending;
      expect(res.status).toBe(200);
      return fx.a.requests.at(-1)!;
    },
    statuses: [200],
    cancelled: 'a',
    agentHadHeaders: true,
  },
  {
    name: 'mid-stream, after reading two chunks',
    route: 'main',
    setup: (fx) => {
      const stream = new ControlledStream();
      use(fx, stream.behaviour);
      return { stream };
    },
    async reach(fx, pending, stream) {
      await stream!.started;
      stream!.write('data: {"n":1}\n\n');
      const reader = (await pending).body!.getReader();
      await readUntil(reader, '"n":1');
      stream!.write('data: {"n":2}\n\n');
      await readUntil(reader, '"n":2');
      return fx.a.requests.at(-1)!;
    },
    statuses: [200],
    cancelled: 'a',
    agentHadHeaders: true,
  },
  {
    name: 'while the daemon reads an upstream error body',
    route: 'solo',
    setup: (fx) => (use(fx, errorHeadersThenSilence(500)), { stream: null }),
    reach: (fx) => fx.a.nextRequest(),
    statuses: [null, 500],
    cancelled: 'a',
    agentHadHeaders: false,
  },
];

/** Runs a request up to the moment, lets `atTheMoment` look, then hangs up; resolves once the upstream request is cancelled. */
async function agentHangsUp(fx: HostileFixture, moment: Moment, atTheMoment: () => void = () => {}): Promise<void> {
  const { stream } = moment.setup(fx);
  const agent = new AbortController();
  const body = moment.route === 'main' ? fx.main({ stream: true }) : fx.solo({ stream: true });
  const pending = fx.post(body, { signal: agent.signal });
  pending.catch(() => {});
  const cancelled = await moment.reach(fx, pending, stream);
  atTheMoment();
  agent.abort();
  // before any response head reached it, the agent's own request fails with the abort
  if (!moment.agentHadHeaders) await expect(pending).rejects.toThrow();
  await within(cancelled.closed, CLOSE_BOUND_MS, 'the upstream request is cancelled: its connection closes');
}

describe.concurrent.each(MOMENTS)('an agent hanging up $name', (moment) => {
  it('cancels the upstream request, leaves no evidence, answers nothing more, records 499', async ({ hostile }) => {
    const fx = await hostile();
    await agentHangsUp(fx, moment);
    const d = await fx.t.events.nextDecision();
    expect(d).toMatchObject({ status: 499, served_by: null });
    expect(d.attempts).toHaveLength(1);
    expect(d.attempts[0]).toEqual({
      seat: 'a',
      model: 'model-a',
      outcome: 'aborted',
      status: d.attempts[0]!.status,
      ms: expect.any(Number),
      evidence: null,
      signal: null,
      retry: 0,
    });
    expect(moment.statuses).toContain(d.attempts[0]!.status);
    expect(fx.t.events.all(isBreaker())).toEqual([]);
    expect(streakOfA(fx)).toBe(0);
    expect(fx.seatA()).toMatchObject({ credit: null, rate_limit: null });
    expect(fx.seatA().models.every((m) => m.streak === 0 && m.breaker === null)).toBe(true);
    expect(fx.b.requests).toHaveLength(0);
    expect(fx.t.context.counters.failovers).toBe(0);
    await expectServedAgainByA(fx);
  });

  it('during a probe: the claim is released (no verdict), the cooldown is unchanged, the next request probes and clears', async ({
    hostile,
  }) => {
    const fx = await hostile();
    use(fx, respond.status(402));
    await (await fx.post(fx.main())).text();
    await fx.t.events.nextDecision();
    await fx.a.nextRequest(); // the 402 that tripped a: not the request to cancel
    const tripped = await fx.t.events.take(isBreaker('tripped', 'a'));
    await fx.t.events.take(isBreaker('probe_ready', 'a'));

    // while the probe is in flight its claim shows in the breaker's state
    await agentHangsUp(fx, moment, () => expect(fx.seatA().credit!.claimed_at).not.toBeNull());
    const d = await fx.t.events.nextDecision();
    expect(d.status).toBe(499);
    expect(d.chain.map((c) => [c.seat, c.state])).toEqual(
      moment.route === 'main'
        ? [
            ['a', 'probe'],
            ['b', 'healthy'],
          ]
        : [['a', 'probe']],
    );
    expect(d.attempts.map((a) => [a.seat, a.outcome])).toEqual([['a', 'aborted']]);

    const claimed = await fx.t.events.take(isBreaker('probe_claimed', 'a'));
    const released = await fx.t.events.take(isBreaker('probe_ready', 'a'));
    expect(released.seq).toBeGreaterThan(claimed.seq);
    expect(released.reason).toBe('probe gave no verdict');
    expect(fx.t.events.all(isBreaker()).map((e) => e.action)).toEqual(['tripped', 'probe_ready', 'probe_claimed', 'probe_ready']);
    const credit = fx.seatA().credit!;
    expect(credit).toMatchObject({ claimed_at: null, failed_probes: 0, cooldown_ms: tripped.cooldown_ms });
    expect(fx.b.requests).toHaveLength(1); // only the request that tripped a failed over

    // the released claim lets the next request probe, and its success clears the seat
    const next = await expectServedAgainByA(fx);
    expect(next.chain[0]).toMatchObject({ seat: 'a', state: 'probe' });
    await fx.t.events.take(isBreaker('cleared', 'a'));
  });
});

describe.concurrent('agents misbehaving in other places', () => {
  it('during fail-over, while the second target works: only that request is cancelled; the first failure still counts', async ({
    hostile,
  }) => {
    const fx = await hostile();
    use(fx, respond.status(500));
    fx.b.setDefault(respond.hang());
    const agent = new AbortController();
    const pending = fx.post(fx.main(), { signal: agent.signal });
    pending.catch(() => {});
    const atB = await fx.b.nextRequest();
    agent.abort();
    await within(atB.closed, CLOSE_BOUND_MS, "b's request is cancelled");
    const d = await fx.t.events.nextDecision();
    expect(d.status).toBe(499);
    expect(d.attempts.map((a) => [a.seat, a.outcome, a.status])).toEqual([
      ['a', 'http_5xx', 500],
      ['b', 'aborted', null],
    ]);
    expect(streakOfA(fx)).toBe(1);
    const b = fx.t.context.influence.seats().find((s) => s.id === 'b')!;
    expect(b.models.every((m) => m.streak === 0)).toBe(true);
    fx.b.setDefault(respond.openaiChat());
    await expectServedAgainByA(fx);
  });

  it('before its own body was complete: nothing reaches an upstream, the daemon keeps serving', async ({ hostile }) => {
    const fx = await hostile();
    const { hostname, port } = new URL(fx.t.url);
    const socket = createConnection(Number(port), hostname);
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    socket.write(
      `POST /v1/chat/completions HTTP/1.1\r\nhost: ${hostname}\r\ncontent-type: application/json\r\ncontent-length: 1000\r\n\r\n{"model":"main","mess`,
    );
    socket.destroy();
    await closed;
    // the next request is served, and it is the first anything upstream ever saw
    await expectServedAgainByA(fx);
    expect(fx.a.requests).toHaveLength(1);
  });

  it('an agent that stops reading for longer than idle_ms is not the upstream failing: it gets the whole stream, no evidence', async ({
    hostile,
  }) => {
    const chunk = `data: ${'x'.repeat(64 * 1024)}\n\n`;
    const chunks = 200; // 13 MB: far more than the socket buffers hold, so the upstream really has to wait
    const fx = await hostile();
    fx.a.enqueue((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      let written = 0;
      const pump = (): void => {
        while (written < chunks) {
          written++;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end('data: [DONE]\n\n');
      };
      pump();
    });
    const res = await fx.post(fx.main({ stream: true }));
    const reader = res.body!.getReader();
    await reader.read();

    // The agent reads nothing while two requests time out on first_byte_ms (= idle_ms) one after
    // the other: the daemon's own timeouts are the clock, so the pause is over 2 × idle_ms.
    fx.a.enqueue(respond.hang(), respond.hang());
    for (let i = 0; i < 2; i++) {
      const clock = await fx.post(fx.main());
      expect(clock.headers.get('x-routeplane-target')).toBe('b/model-b');
      await clock.text();
    }

    let received = 0;
    let tail = '';
    for (let r = await reader.read(); !r.done; r = await reader.read()) {
      received += r.value.length;
      tail = (tail + new TextDecoder().decode(r.value.subarray(-64))).slice(-64);
    }
    expect(tail.endsWith('data: [DONE]\n\n')).toBe(true);
    const decisions = [await fx.t.events.nextDecision(), await fx.t.events.nextDecision(), await fx.t.events.nextDecision()];
    const slow = decisions.find((d) => d.stream)!;
    expect(slow.attempts.map((a) => [a.seat, a.outcome, a.status])).toEqual([['a', 'ok', 200]]);
    expect(received).toBeGreaterThan(chunks * 64 * 1024 - 256 * 1024);
    // the clock requests' hangs counted against a; the slow stream then ended ok and reset the streak
    expect(streakOfA(fx)).toBe(0);
    expect(fx.seatA().models[0]!.breaker).toBeNull();
  });
});
