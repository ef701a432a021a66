import { describe, expect, it } from 'vitest';
import { costOf, orderingPrice, type Price, type Usage } from '../src/index.js';

const price = (p: Partial<Price>): Price => ({ input: 0, output: 0, cache_read: 0, cache_write: 0, ...p });
const usage = (u: Partial<Usage>): Usage => ({
  input_tokens: null,
  output_tokens: null,
  cache_read_tokens: null,
  cache_write_tokens: null,
  ...u,
});

/** 1,000 input, 200 output, 5,000 cache read, 300 cache write tokens. */
const anthropicUsage = usage({ input_tokens: 1_000, output_tokens: 200, cache_read_tokens: 5_000, cache_write_tokens: 300 });

describe('costOf: Σ tokens × price per million', () => {
  it.each([
    ['input', price({ input: 3 }), 1_000 * 3],
    ['output', price({ output: 15 }), 200 * 15],
    ['cache_read', price({ cache_read: 0.3 }), 5_000 * 0.3],
    ['cache_write', price({ cache_write: 3.75 }), 300 * 3.75],
  ])('prices the %s part on its own', (_part, p, perMillion) => {
    expect(costOf(anthropicUsage, p, 'anthropic', false)).toBeCloseTo(perMillion / 1e6, 12);
  });

  it('adds the four parts: each token priced once', () => {
    const all = price({ input: 3, output: 15, cache_read: 0.3, cache_write: 3.75 });
    // 0.003 + 0.003 + 0.0015 + 0.001125
    expect(costOf(anthropicUsage, all, 'anthropic', false)).toBe(0.008625);
  });

  it('takes the cached tokens out of an OpenAI input (its prompt_tokens include them), not out of an Anthropic one', () => {
    const u = usage({ input_tokens: 40_000, output_tokens: 8_000, cache_read_tokens: 30_000 });
    const p = price({ input: 1.25, output: 10, cache_read: 0.125 });
    // OpenAI: (40,000 − 30,000) × 1.25 + 8,000 × 10 + 30,000 × 0.125 = 12,500 + 80,000 + 3,750
    expect(costOf(u, p, 'openai', false)).toBe(0.09625);
    // Anthropic: 40,000 × 1.25 + 80,000 + 3,750
    expect(costOf(u, p, 'anthropic', false)).toBe(0.13375);
  });

  it('counts a part not reported as 0, and an answer without usage as costing nothing', () => {
    const p = price({ input: 3, output: 15, cache_read: 0.3, cache_write: 3.75 });
    expect(costOf(usage({ output_tokens: 1_000 }), p, 'anthropic', false)).toBe(0.015);
    // an OpenAI answer that reported cached tokens but no prompt tokens never goes below zero on input
    expect(costOf(usage({ cache_read_tokens: 1_000 }), p, 'openai', false)).toBe(0.0003);
    expect(costOf(null, p, 'openai', false)).toBe(0);
  });

  it('is null without a price, and for a plan (the agent’s own login) whatever the price', () => {
    expect(costOf(anthropicUsage, null, 'anthropic', false)).toBeNull();
    expect(costOf(anthropicUsage, price({ input: 3 }), 'anthropic', true)).toBeNull();
  });

  it('is rounded to a billionth of a unit, so sums and logs read 0.0036, not 0.0036000000000000003', () => {
    const cost = costOf(usage({ input_tokens: 1_200 }), price({ input: 3 }), 'anthropic', false);
    expect(cost).toBe(0.0036);
    expect(String(costOf(usage({ input_tokens: 1 }), price({ input: 0.0001 }), 'anthropic', false))).toBe('0');
  });
});

describe('orderingPrice', () => {
  it('is input + output: cache parts do not order balance: cost', () => {
    expect(orderingPrice(price({ input: 3, output: 15, cache_read: 100, cache_write: 100 }))).toBe(18);
  });
});
