import { describe, expect, test } from 'vitest';
import { explainDecision, explainDecisionText } from '../../src/output/explain-decision.js';
import { attempt, decision } from '../top/support/fixtures.js';

/** `routeplane why` and top's Enter: one decision in full, as pure text. */
const at = () => '2025-01-15 14:03:07';

describe('a decision explained', () => {
  test('requested → route, agent, lane, session, balance, the chain with state, reason and time left, every attempt, who served', () => {
    const d = decision({
      ts: 0,
      request_id: 'req-7f3a',
      requested: 'claude-sonnet-4-5',
      route: 'sonnet',
      stream: true,
      agent: 'ci-bot',
      lane: 'foreground',
      session: '3fa2b1c0d9e8',
      balance: 'spread',
      client: 'claude-cli/2.1.197',
      chain: [
        { seat: 'work-max', model: 'claude-sonnet-4-5', state: 'probe', reason: 'credit', pinned: false, left_ms: null },
        { seat: 'personal-pro', model: 'claude-sonnet-4-5', state: 'tripped', reason: 'quota', pinned: true, left_ms: 8_040_000 },
        { seat: 'openrouter', model: 'anthropic/claude-sonnet-4.5', state: 'skipped', reason: 'protocol', pinned: false, left_ms: null },
      ],
      attempts: [
        {
          ...attempt('work-max', 'claude-sonnet-4-5', 'http_4xx', 400, 88),
          evidence: 'credit',
          signal: {
            status: 400,
            type: 'invalid_request_error',
            code: null,
            header: null,
            message: 'Your credit balance is too low to access the Anthropic API.',
          },
        },
        {
          ...attempt('personal-pro', 'claude-sonnet-4-5', 'ok', 200, 721),
          retry: 1,
        },
      ],
      served_by: 'personal-pro/claude-sonnet-4-5',
      status: 200,
      duration_ms: 812,
      usage: { input_tokens: 1200, output_tokens: 340, cache_read_tokens: 0, cache_write_tokens: null },
      cost: 0.00852,
    });
    expect(explainDecisionText(d, { time: at, currency: 'USD' })).toEqual([
      'request   req-7f3a at 2025-01-15 14:03:07 · anthropic · streamed · client claude-cli/2.1.197',
      'route     sonnet (asked for "claude-sonnet-4-5")',
      'agent     ci-bot · lane foreground · session 3fa2b1c0d9e8 · balance spread',
      'chain     as ordered when the request started',
      '   1 ◐ work-max/claude-sonnet-4-5              probe · credit',
      '   2 ✗ personal-pro/claude-sonnet-4-5          tripped · quota · resets in 2h14m · pinned',
      '   3 ○ openrouter/anthropic/claude-sonnet-4.5  skipped · protocol',
      'attempts  outcome · evidence · ms · signal',
      '   1 work-max/claude-sonnet-4-5      400  credit   88ms · probe · 400 credit balance is too low',
      '   2 personal-pro/claude-sonnet-4-5  ok   ok      721ms · retry 1',
      'served    personal-pro/claude-sonnet-4-5 · status 200 in 812ms',
      'usage     in 1200 · out 340 · cache read 0',
      'cost      0.00852 USD',
    ]);
    // without the config's currency, the figure alone; a target without a price, no cost line
    expect(explainDecisionText(d, { time: at }).at(-1)).toBe('cost      0.00852');
    expect(explainDecisionText({ ...d, cost: null }, { time: at }).at(-1)).toMatch(/^usage /);
  });

  test('a fail-open request, a rate limit with its header, and one that sent nothing', () => {
    const failOpen = decision({
      ts: 0,
      fail_open: true,
      status: 429,
      chain: [{ seat: 'openrouter', model: 'openai/gpt-5-codex', state: 'tripped', reason: 'rate_limit', pinned: false, left_ms: 3000 }],
      attempts: [
        {
          ...attempt('openrouter', 'openai/gpt-5-codex', 'http_429', 429, 30),
          signal: { status: 429, type: 'rate_limit_error', code: null, header: 'retry-after: 3', message: null },
        },
      ],
      served_by: 'openrouter/openai/gpt-5-codex',
    });
    const text = explainDecisionText(failOpen, { time: at });
    expect(text).toContain('   1 ✗ openrouter/openai/gpt-5-codex  tripped · rate_limit · ends in 3s');
    expect(text).toContain('   1 openrouter/openai/gpt-5-codex  429  rate_limit  30ms · fail-open · 429 rate_limit_error (retry-after)');
    expect(text.at(-1)).toMatch(/· status 429 in 652ms · fail-open: every target was held back, the configured order was tried$/);

    const skipped = decision({ ts: 0, lane: 'background', skipped: true, status: 503, attempts: [], served_by: null });
    const lines = explainDecisionText(skipped, { time: at });
    expect(lines).toContain('attempts  none: a background request, skipped because every target was held back');
    expect(lines).toContain('served    no upstream answer · status 503 in 652ms');
  });

  test('is toned for a screen: outcomes and states carry their meaning', () => {
    const lines = explainDecision(decision({ ts: 0 }), { time: at });
    const ok = lines.flat().find((s) => s.text.startsWith('ok'));
    expect(ok?.tone).toBe('ok');
  });
});
