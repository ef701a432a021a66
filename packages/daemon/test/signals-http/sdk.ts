/**
 * The official clients, pointed at the daemon the way agents are: for the
 * tests where what an SDK makes of an answer is the point (a typed error, a
 * stream it parses). Kept apart from support.ts so the other files do not
 * load them.
 */
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import type { TestDaemon } from '../helpers/test-daemon.js';

/** The agent's own key: never forwarded, so nothing upstream can echo it. */
const AGENT_KEY = 'agent-key-of-the-test';

export function openaiClient(t: TestDaemon): OpenAI {
  return new OpenAI({ apiKey: AGENT_KEY, baseURL: `${t.url}/v1`, maxRetries: 0 });
}

export function anthropicClient(t: TestDaemon): Anthropic {
  return new Anthropic({ apiKey: AGENT_KEY, baseURL: t.url, maxRetries: 0 });
}

/**
 * One request through the family's official client, as an agent sends it
 * (`model` is the route: `gpt` or `claude` in the two-seat fixture); the
 * text it got back.
 */
export async function askWithSdk(
  t: TestDaemon,
  provider: 'openai' | 'anthropic',
  model = provider === 'openai' ? 'gpt' : 'claude',
): Promise<string> {
  const messages = [{ role: 'user' as const, content: 'hi' }];
  if (provider === 'openai') {
    const completion = await openaiClient(t).chat.completions.create({ model, messages });
    return completion.choices[0]?.message.content ?? '';
  }
  const message = await anthropicClient(t).messages.create({ model, max_tokens: 16, messages });
  return message.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
}
