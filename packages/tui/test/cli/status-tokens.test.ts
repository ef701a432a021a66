import type { StatusSummary } from '@routeplane/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { respond, startFakeUpstream, type FakeUpstream } from '../../../daemon/test/helpers/fake-upstream.js';
import { startTestDaemon, type TestDaemon } from '../../../daemon/test/helpers/test-daemon.js';
import { isolatedEnv, requireBuiltCli, runCli, tempHome } from '../../../daemon/test/helpers/cli-process.js';

beforeAll(requireBuiltCli);

/**
 * `routeplane status` sums token usage per seat: a few requests whose answers report usage —
 * an Anthropic message with cache counts, an OpenAI completion whose cached
 * tokens are part of its prompt tokens, one answer without usage — then
 * `status --json` and the human view.
 */
let t: TestDaemon;
let claude: FakeUpstream;
let gpt: FakeUpstream;
const home = tempHome();

const anthropicMessage = (input: number, output: number, cacheRead: number, cacheWrite: number) =>
  respond.json(200, {
    id: 'msg_01',
    type: 'message',
    role: 'assistant',
    model: 'claude-sonnet-5',
    content: [{ type: 'text', text: 'hi' }],
    stop_reason: 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: input, output_tokens: output, cache_read_input_tokens: cacheRead, cache_creation_input_tokens: cacheWrite },
  });

beforeAll(async () => {
  claude = await startFakeUpstream();
  gpt = await startFakeUpstream();
  t = await startTestDaemon({
    seats: [
      { id: 'max-a', provider: 'anthropic', upstream: claude },
      { id: 'gpt-b', provider: 'openai', upstream: gpt },
      { id: 'idle-c', provider: 'openai', upstream: gpt },
    ],
    routes: [
      { model: 'claude', chain: [{ seat: 'max-a', model: 'claude-sonnet-5' }] },
      { model: 'gpt', chain: [{ seat: 'gpt-b', model: 'gpt-5' }] },
      { model: 'idle', chain: [{ seat: 'idle-c', model: 'gpt-5' }] },
    ],
    decisionLog: false,
  });
  claude.enqueue(anthropicMessage(1200, 300, 50_000, 2_000), anthropicMessage(800, 700, 1_000_000, 0));
  gpt.enqueue(
    respond.json(200, {
      id: 'chatcmpl-1',
      object: 'chat.completion',
      created: 1_700_000_000,
      model: 'gpt-5',
      choices: [{ index: 0, message: { role: 'assistant', content: 'hi' }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 40_000, completion_tokens: 8_000, total_tokens: 48_000, prompt_tokens_details: { cached_tokens: 30_000 } },
    }),
    // an answer without usage adds nothing
    respond.json(200, { id: 'chatcmpl-2', object: 'chat.completion', created: 1, model: 'gpt-5', choices: [] }),
  );
  const ask = async (path: string, model: string) => {
    const res = await t.post(path, { model, max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] });
    expect(res.status).toBe(200);
    await res.arrayBuffer();
  };
  await ask('/v1/messages', 'claude');
  await ask('/v1/messages', 'claude');
  await ask('/v1/chat/completions', 'gpt');
  await ask('/v1/chat/completions', 'gpt');
});

afterAll(async () => {
  await t.close();
  await Promise.all([claude.close(), gpt.close()]);
  home.remove();
});

const status = (...args: string[]) => runCli(['status', '--socket', t.daemon.socketPath, ...args], isolatedEnv(home.dir), home.dir);

describe('routeplane status: tokens per seat', () => {
  it('--json carries every seat’s tokens, summed over its answers, by kind', async () => {
    const result = await status('--json');
    expect(result.code).toBe(0);
    const printed = JSON.parse(result.stdout) as StatusSummary;
    expect(printed.tokens).toEqual({
      'max-a': { input: 2_000, output: 1_000, cache_read: 1_050_000, cache_write: 2_000 },
      'gpt-b': { input: 40_000, output: 8_000, cache_read: 30_000, cache_write: 0 },
      'idle-c': { input: 0, output: 0, cache_read: 0, cache_write: 0 },
    });
  });

  it('the human view says them after the traffic, one line per seat that reported any', async () => {
    const result = await status();
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    const at = lines.findIndex((l) => l.startsWith('  traffic'));
    expect(lines.slice(at + 1, at + 3)).toEqual([
      '  tokens   max-a  2k in · 1k out · 1.1M cache read · 2k cache write',
      '           gpt-b  40k in · 8k out · 30k cache read',
    ]);
    expect(lines[at + 3]).toMatch(/^[●○] /);
    expect(result.stdout).not.toContain('idle-c');
  });

  it('the snapshot’s seats carry the same tally (what top starts from)', async () => {
    const { connectControl } = await import('../../src/client/control-client.js');
    const client = await connectControl(t.daemon.socketPath);
    try {
      const snapshot = await client.request('snapshot');
      expect(Object.fromEntries(snapshot.seats.map((s) => [s.id, s.tokens]))).toEqual((await client.request('status')).tokens);
    } finally {
      client.close();
    }
  });
});
