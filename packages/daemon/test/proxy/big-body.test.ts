import { afterEach, describe, expect, it } from 'vitest';
import { respond } from '../helpers/fake-upstream.js';
import { CHAT, startTwoSeats, type TwoSeats } from '../helpers/two-seats.js';

/**
 * Agents send big contexts. Above a few KB the swapped body goes upstream as
 * pieces (the agent's bytes before the model, the target's model, the bytes
 * after) rather than a fresh copy; what the upstream receives must still be
 * exactly the agent's bytes with only the model value changed, with the right
 * content-length, on every attempt of a fail-over.
 */

let fx: TwoSeats | null = null;
afterEach(async () => {
  await fx?.close();
  fx = null;
});

/** ~300 KB of conversation written by hand (spacing, escapes, unicode), `model` after it, then `stream`. */
function bigBody(model: string): string {
  // JSON string content as an agent's SDK writes it: escaped quotes, backslash runs, unicode raw and escaped
  const line = String.raw`const s = \"a \\\"quoted\\\" word\", path = \"C:\\\\dir\\\\\"; // ünïcødé 🚀 \u00e9\n`;
  const messages = Array.from({ length: 60 }, (_, i) => `{ "role" : "${i % 2 ? 'assistant' : 'user'}", "content": "${line.repeat(60)}" }`);
  return `{\n  "messages": [\n    ${messages.join(',\n    ')}\n  ],\n  "model" :  ${JSON.stringify(model)} ,\n  "stream": false\n}\n`;
}

describe('a big context through the daemon', () => {
  it('reaches every attempted upstream byte for byte except its model, with the right content-length', async () => {
    fx = await startTwoSeats({ behaviourA: respond.status(500) });
    const text = bigBody('gpt');
    expect(Buffer.byteLength(text)).toBeGreaterThan(250 * 1024);
    expect(JSON.parse(text)).toMatchObject({ model: 'gpt', stream: false });

    const res = await fx.t.post(CHAT, text);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-routeplane-target')).toBe('b/model-b');
    await res.text();

    for (const [upstream, model] of [
      [fx.a, 'model-a'],
      [fx.b, 'model-b'],
    ] as const) {
      const received = upstream.requests[0]!;
      const expected = Buffer.from(bigBody(model));
      expect(received.body.equals(expected)).toBe(true);
      expect(received.headers['content-length']).toBe(String(expected.length));
      expect(received.headers['transfer-encoding']).toBeUndefined();
    }
    const d = await fx.t.events.nextDecision();
    expect(d.attempts.map((a) => [a.seat, a.outcome])).toEqual([
      ['a', 'http_5xx'],
      ['b', 'ok'],
    ]);
  });
});
