// What reading the token usage of one served answer costs (goal 14): every
// chunk handed to the tap as the relay does, then `usage()` once at the end.
// The agents' own answers (~200 events: bench/lib/agent-answers.mjs) and the
// bench's 2 KB OpenAI stream (20 chunks, no usage reported).
import { bench, describe } from 'vitest';
import { UsageTap } from '../../packages/daemon/src/usage/usage-tap.js';
import { AGENT_ANSWERS } from '../lib/agent-answers.mjs';

const openai = Array.from({ length: 20 }, (_, i) =>
  Buffer.from(
    `data: ${JSON.stringify({ id: 'chatcmpl-bench', object: 'chat.completion.chunk', created: 1, model: 'gpt-mock', choices: [{ index: 0, delta: { content: `token${i} ` }, finish_reason: null }] })}\n\n`,
  ),
);
const answers: Array<[string, readonly Buffer[]]> = [
  ['2 KB OpenAI stream, 20 chunks, no usage', openai],
  ['Claude Code answer, 200 events', AGENT_ANSWERS['claude-code'].frames as Buffer[]],
  ['Codex answer, 200 events', AGENT_ANSWERS.codex.frames as Buffer[]],
];

describe('usage tap', () => {
  for (const [name, frames] of answers) {
    bench(`${name}: push every chunk, then usage()`, () => {
      const tap = new UsageTap(true);
      for (const frame of frames) tap.push(frame);
      if (tap.usage() === null && frames !== openai) throw new Error(`usage tap bench: no usage read from the ${name}`);
    });
  }
});
