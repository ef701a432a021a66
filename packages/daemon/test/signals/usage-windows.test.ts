import type { SeatUsage, UsageWindow } from '@routeplane/shared';
import { describe, expect, it } from 'vitest';
import { mergeUsage } from '../../src/signals/merge-usage.js';
import { usageWindows } from '../../src/signals/usage-windows.js';
import { anthropicLimits, CODEX_HEADERS, NOW, openaiLimits, UNIFIED_RESET_MS, unifiedRejected } from './fixtures.js';

/** Usage windows: what each provider reports, read from every answer. */

const byName = (windows: UsageWindow[]) => [...windows].sort((a, b) => a.name.localeCompare(b.name));

describe('usage windows', () => {
  it('Anthropic subscription: 5h, 7d and overage from the unified headers', () => {
    expect(usageWindows(unifiedRejected('five_hour'), NOW)).toEqual([
      { name: '5h', utilization: 1.01, reset_at: UNIFIED_RESET_MS, status: 'rejected' },
      { name: '7d', utilization: 0.42, reset_at: 1_764_979_200_000, status: 'allowed' },
      // overage reports a status and a reason, no utilization: not a window we can show as a gauge
    ]);
  });

  it('Anthropic subscription: a per-model weekly window 7d_<family>', () => {
    const headers = {
      'anthropic-ratelimit-unified-7d_sonnet-utilization': '0.97',
      'anthropic-ratelimit-unified-7d_sonnet-reset': '1764979200',
      'anthropic-ratelimit-unified-7d_sonnet-status': 'allowed_warning',
      'anthropic-ratelimit-unified-7d_opus-utilization': '1',
      'anthropic-ratelimit-unified-overage-utilization': '0.1',
      'anthropic-ratelimit-unified-overage-status': 'allowed',
      'anthropic-ratelimit-unified-7d_-utilization': '0.5',
      'anthropic-ratelimit-unified-7d_x-in-use': 'true',
    };
    expect(byName(usageWindows(headers, NOW))).toEqual([
      { name: '7d_opus', utilization: 1, reset_at: null, status: null },
      { name: '7d_sonnet', utilization: 0.97, reset_at: 1_764_979_200_000, status: 'allowed_warning' },
      { name: 'overage', utilization: 0.1, reset_at: null, status: 'allowed' },
    ]);
  });

  it('Anthropic API: requests and tokens, utilization 1 − remaining/limit', () => {
    const headers = anthropicLimits({
      requestsRemaining: '40',
      requestsReset: '2025-12-01T11:00:30Z',
      tokensRemaining: '0',
      tokensReset: '2025-12-01T11:01:00Z',
    });
    expect(usageWindows(headers, NOW)).toEqual([
      { name: 'requests', utilization: 0.2, reset_at: NOW + 30_000, status: null },
      { name: 'tokens', utilization: 1, reset_at: NOW + 60_000, status: null },
    ]);
  });

  it('OpenAI: requests and tokens, Go-duration resets counted from now', () => {
    const headers = openaiLimits({ requestsRemaining: '499', requestsReset: '120ms', tokensRemaining: '22500', tokensReset: '6m0s' });
    expect(usageWindows(headers, NOW)).toEqual([
      { name: 'requests', utilization: 0.002, reset_at: NOW + 120, status: null },
      { name: 'tokens', utilization: 0.25, reset_at: NOW + 360_000, status: null },
    ]);
  });

  it('Codex: primary 300 minutes is 5h, secondary 10080 is 7d; percent ÷ 100; reset-at (epoch s) or reset-after', () => {
    expect(usageWindows(CODEX_HEADERS, NOW)).toEqual([
      { name: '5h', utilization: 1, reset_at: NOW + 13_872_000, status: null },
      { name: '7d', utilization: 0.375, reset_at: 1_777_936_568_000, status: null },
    ]);
  });

  it("Codex: another window length keeps the header's word; reset-at wins over reset-after", () => {
    const headers = {
      'x-codex-primary-used-percent': '12',
      'x-codex-primary-window-minutes': '60',
      'x-codex-primary-reset-at': '1764590000',
      'x-codex-primary-reset-after-seconds': '5',
      'x-codex-secondary-used-percent': '3',
    };
    expect(usageWindows(headers, NOW)).toEqual([
      { name: 'primary', utilization: 0.12, reset_at: UNIFIED_RESET_MS, status: null },
      { name: 'secondary', utilization: 0.03, reset_at: null, status: null },
    ]);
  });

  it('reports nothing for an answer without usage headers, without allocating', () => {
    const plain = { 'content-type': 'application/json', 'x-request-id': 'req_1', 'anthropic-organization-id': 'org', age: '0' };
    const first = usageWindows(plain, NOW);
    expect(first).toEqual([]);
    expect(usageWindows({}, NOW)).toBe(first);
  });

  it.each([
    ['a negative utilization', { 'anthropic-ratelimit-unified-5h-utilization': '-0.5' }],
    ['NaN', { 'anthropic-ratelimit-unified-5h-utilization': 'NaN' }],
    ['an exponent', { 'x-codex-primary-used-percent': '1e3' }],
    ['a zero limit', { 'x-ratelimit-limit-requests': '0', 'x-ratelimit-remaining-requests': '0' }],
    ["Azure's -1", { 'x-ratelimit-limit-requests': '-1', 'x-ratelimit-remaining-requests': '-1' }],
    ['a remaining without a limit', { 'x-ratelimit-remaining-tokens': '5' }],
    ['an empty value', { 'anthropic-ratelimit-unified-5h-utilization': '' }],
  ])('leaves out a window it cannot measure: %s', (_what, headers) => {
    expect(usageWindows(headers, NOW)).toEqual([]);
  });

  it('keeps hostile resets finite or null, and cleans the status', () => {
    const windows = usageWindows(
      {
        'anthropic-ratelimit-unified-5h-utilization': '0.5',
        'anthropic-ratelimit-unified-5h-reset': '99999999999999999999',
        'anthropic-ratelimit-unified-5h-status': 'allowed\u001b[31m',
        'anthropic-ratelimit-unified-7d-utilization': '0.5',
        'anthropic-ratelimit-unified-7d-reset': '-5',
      },
      NOW,
    );
    expect(windows).toEqual([
      { name: '5h', utilization: 0.5, reset_at: Number.MAX_SAFE_INTEGER, status: 'allowed[31m' },
      { name: '7d', utilization: 0.5, reset_at: null, status: null },
    ]);
  });

  it('remaining above limit is no negative usage', () => {
    expect(usageWindows({ 'x-ratelimit-limit-tokens': '10', 'x-ratelimit-remaining-tokens': '12' }, NOW)).toEqual([
      { name: 'tokens', utilization: 0, reset_at: null, status: null },
    ]);
  });

  it('takes the first of repeated headers', () => {
    expect(usageWindows({ 'anthropic-ratelimit-unified-5h-utilization': ['0.3', '0.9'] }, NOW)).toMatchObject([{ utilization: 0.3 }]);
  });
});

describe('merging usage per seat', () => {
  const w = (name: string, utilization: number): UsageWindow => ({ name, utilization, reset_at: null, status: null });

  it('starts from nothing', () => {
    expect(mergeUsage(null, [w('5h', 0.1)], NOW)).toEqual({ observed_at: NOW, windows: [w('5h', 0.1)], extra_usage: null });
  });

  it('updates the windows an answer reports and keeps the others', () => {
    const before: SeatUsage = { observed_at: NOW - 1_000, windows: [w('5h', 0.1), w('7d', 0.4)], extra_usage: null };
    expect(mergeUsage(before, [w('7d', 0.5), w('7d_opus', 0.9)], NOW)).toEqual({
      observed_at: NOW,
      windows: [w('5h', 0.1), w('7d', 0.5), w('7d_opus', 0.9)],
      extra_usage: null,
    });
    // the previous object is not changed
    expect(before.windows).toEqual([w('5h', 0.1), w('7d', 0.4)]);
  });

  it('an answer that reports nothing changes nothing, observed_at included', () => {
    const before: SeatUsage = { observed_at: NOW - 1_000, windows: [w('5h', 0.1)], extra_usage: null };
    expect(mergeUsage(before, [], NOW)).toBe(before);
    expect(mergeUsage(null, [], NOW)).toBeNull();
  });
});
