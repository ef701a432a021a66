import { VERSION as ANTHROPIC_VERSION } from '@anthropic-ai/sdk/version';
import { VERSION as OPENAI_VERSION } from 'openai/version';
import { afterEach, describe, expect, it } from 'vitest';
import { startTwoSeats, type TwoSeats } from '../helpers/two-seats.js';
import { askWithSdk } from '../signals-http/sdk.js';

/**
 * A decision's `client` is the product token of the agent's `user-agent`,
 * here from the real
 * official clients end to end: the SDK sends its own header, the decision
 * names it (`OpenAI/JS 6.x.y`, `Anthropic/JS 0.x.y`, the installed version).
 */

let fx: TwoSeats | null = null;
afterEach(async () => {
  await fx?.close();
  fx = null;
});

describe('decision client from the user-agent', () => {
  it.each([
    ['openai', `OpenAI/JS ${OPENAI_VERSION}`],
    ['anthropic', `Anthropic/JS ${ANTHROPIC_VERSION}`],
  ] as const)('%s SDK: the decision names it and its version', async (provider, client) => {
    fx = await startTwoSeats({ provider });
    const decision = fx.t.events.nextDecision();
    await askWithSdk(fx.t, provider);
    const d = await decision;
    expect(d.status).toBe(200);
    expect(d.client).toBe(client);
    // what the upstream saw is the agent's own header, of which the decision keeps the product token
    expect(String(fx.a.requests.at(-1)?.headers['user-agent'])).toContain(d.client!);
  });
});
