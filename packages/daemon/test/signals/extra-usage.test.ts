import { describe, expect, it } from 'vitest';
import { extraUsageOf, extraUsageQuota } from '../../src/signals/extra-usage.js';

const NOW = 1_800_000_000_000;
const inAnHour = String(NOW / 1000 + 3600);

describe('extra usage (a Claude subscription billing past its plan)', () => {
  it('overage-in-use: true, or a representative claim that begins with overage, says it was', () => {
    expect(extraUsageOf({ 'anthropic-ratelimit-unified-overage-in-use': 'true' })).toEqual({
      billed: true,
      header: 'anthropic-ratelimit-unified-overage-in-use: true',
    });
    expect(extraUsageOf({ 'anthropic-ratelimit-unified-representative-claim': 'overage' })).toEqual({
      billed: true,
      header: 'anthropic-ratelimit-unified-representative-claim: overage',
    });
  });

  it('an answer with unified headers that says neither was not; one without them says nothing', () => {
    expect(
      extraUsageOf({ 'anthropic-ratelimit-unified-status': 'allowed', 'anthropic-ratelimit-unified-representative-claim': 'five_hour' }),
    ).toEqual({
      billed: false,
      header: null,
    });
    expect(extraUsageOf({ 'anthropic-ratelimit-unified-overage-in-use': 'false' })).toEqual({ billed: false, header: null });
    expect(extraUsageOf({ 'content-type': 'application/json', 'anthropic-ratelimit-requests-remaining': '3' })).toBeNull();
  });

  it('the quota holds the seat until the unified reset, else the 5h reset, else the cooldown', () => {
    const billed = { billed: true, header: 'anthropic-ratelimit-unified-overage-in-use: true' };
    const quota = (headers: Record<string, string>) => extraUsageQuota(billed, headers, 200, NOW, 60_000, []);
    expect(quota({ 'anthropic-ratelimit-unified-reset': inAnHour, 'anthropic-ratelimit-unified-5h-reset': '1' })).toEqual({
      class: 'quota',
      cover: 'seat',
      resetAt: NOW + 3_600_000,
      signal: { status: 200, type: null, code: null, header: 'anthropic-ratelimit-unified-overage-in-use: true', message: null },
    });
    expect(quota({ 'anthropic-ratelimit-unified-5h-reset': inAnHour })).toMatchObject({ resetAt: NOW + 3_600_000 });
    expect(quota({ 'anthropic-ratelimit-unified-reset': String(NOW / 1000 - 10) })).toMatchObject({ resetAt: NOW + 60_000 });
    expect(quota({})).toMatchObject({ resetAt: NOW + 60_000 });
  });
});
