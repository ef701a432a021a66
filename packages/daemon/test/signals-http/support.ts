/**
 * Shared pieces of the signal tests over real HTTP: the
 * control socket's `snapshot` and `status` as a person's tools read them,
 * provider answers written byte for byte, and the time values providers put
 * in their headers, made relative to the real clock the daemon runs on.
 */
import type { BreakerEvent, DecisionEvent, Snapshot, StatusSummary } from '@routeplane/shared';
import { LineClient } from '../control/line-client.js';
import { isBreaker } from '../helpers/events.js';
import type { Behaviour } from '../helpers/fake-upstream.js';
import type { TestDaemon } from '../helpers/test-daemon.js';

/** One control command on a fresh connection, its result (throws on an error reply). */
async function control<T>(t: TestDaemon, cmd: string, args: Record<string, unknown> = {}): Promise<T> {
  const client = await LineClient.connect(t.daemon.socketPath);
  try {
    const reply = await client.request(cmd, args);
    if (reply.ok !== true) throw new Error(`${cmd} failed: ${JSON.stringify(reply.error)}`);
    return reply.result as T;
  } finally {
    client.close();
  }
}

export const controlSnapshot = (t: TestDaemon): Promise<Snapshot> => control<Snapshot>(t, 'snapshot');
export const controlStatus = (t: TestDaemon): Promise<StatusSummary> => control<StatusSummary>(t, 'status');
/** `probe`: the seat's open breakers become probe-ready now, so a test need not wait out a deadline it is not about. */
export const controlProbe = (t: TestDaemon, seat: string): Promise<{ made_ready: number }> => control(t, 'probe', { seat });

/** An answer exactly as a provider writes it: the body is sent as given, not re-serialized. */
export function answer(status: number, body: string, headers: Record<string, string | undefined> = {}): Behaviour {
  return (_req, res) => {
    const head: Record<string, string> = { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) };
    for (const [name, value] of Object.entries(headers)) {
      if (value === undefined) delete head[name];
      else head[name] = value;
    }
    res.writeHead(status, head);
    res.end(body);
  };
}

/** Answers by the model the daemon asked for (after its model swap). */
export function byModel(behaviours: Record<string, Behaviour>, otherwise?: Behaviour): Behaviour {
  return (req, res) => {
    const chosen = behaviours[String(req.json?.model)] ?? otherwise;
    if (chosen === undefined) throw new Error(`no behaviour for model ${String(req.json?.model)}`);
    return chosen(req, res);
  };
}

/** Epoch seconds `secs` from now, as providers write resets (whole seconds). */
export function epochSecondsIn(secs: number): number {
  return Math.floor(Date.now() / 1000) + secs;
}

/** An RFC 3339 time `secs` from now, whole seconds, as Anthropic writes its resets. */
export function rfc3339In(secs: number): { text: string; ms: number } {
  const ms = epochSecondsIn(secs) * 1000;
  return { text: new Date(ms).toISOString().replace('.000Z', 'Z'), ms };
}

/** 00:00 UTC on the 1st of the month after `now`: when Anthropic's monthly spend cap lifts. */
export function nextMonthUtc(now: number): number {
  const d = new Date(now);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
}

/** The breaker events that changed a breaker's state (not the coalesced count events). */
export function stateEvents(t: TestDaemon): BreakerEvent[] {
  return t.events.all(isBreaker()).filter((e) => e.action !== 'refused' && e.action !== 'skipped');
}

/** Who the attempts went to, and what each was evidence of. */
export function attemptsOf(d: DecisionEvent): Array<[string, string, number | null, string | null]> {
  return d.attempts.map((a) => [`${a.seat}/${a.model}`, a.outcome, a.status, a.evidence]);
}

/**
 * One request as an agent sends it (`model` is the route: `gpt` or `claude`
 * in the two-seat fixture); the text it got back. A failed answer throws,
 * as a client library would.
 */
export async function ask(
  t: TestDaemon,
  provider: 'openai' | 'anthropic',
  model = provider === 'openai' ? 'gpt' : 'claude',
): Promise<string> {
  const messages = [{ role: 'user', content: 'hi' }];
  const res =
    provider === 'openai'
      ? await t.post('/v1/chat/completions', { model, messages })
      : await t.post('/v1/messages', { model, max_tokens: 16, messages });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${provider} ${model}: ${res.status} ${text}`);
  const body = JSON.parse(text);
  if (provider === 'openai') return body.choices[0].message.content;
  return body.content.map((block: { type: string; text?: string }) => (block.type === 'text' ? block.text : '')).join('');
}
