import type { Evidence } from './evidence.js';
import { firstValue, type UpstreamHeaders } from './retry-after.js';
import { buildSignal } from './signal.js';
import { secondsToMs } from './time-values.js';

/**
 * Whether an answer from a Claude subscription was billed as extra usage
 * (pay-as-you-go past the plan): `anthropic-ratelimit-unified-overage-in-use:
 * true`, or a representative claim that begins with `overage`. Only answers
 * that carry the subscription's unified headers say either way; the rest say
 * nothing. A handful of lookups, no scan: it runs on every answer.
 */

const UNIFIED = 'anthropic-ratelimit-unified-';
const OVERAGE_IN_USE = `${UNIFIED}overage-in-use`;
const CLAIM = `${UNIFIED}representative-claim`;
const RESET = `${UNIFIED}reset`;
const FIVE_HOUR_RESET = `${UNIFIED}5h-reset`;
/** the headers a subscription's answer carries; one of them present means it spoke */
const MARKERS = [`${UNIFIED}status`, RESET, CLAIM, OVERAGE_IN_USE, `${UNIFIED}5h-utilization`, `${UNIFIED}7d-utilization`];

/** What an answer said about extra usage, and the header that said it was (`name: value`). */
export interface ExtraUsage {
  readonly billed: boolean;
  readonly header: string | null;
}

/** null: the answer carried no unified headers. */
export function extraUsageOf(headers: UpstreamHeaders): ExtraUsage | null {
  const inUse = firstValue(headers[OVERAGE_IN_USE]);
  if (inUse?.trim().toLowerCase() === 'true') return { billed: true, header: `${OVERAGE_IN_USE}: ${inUse}` };
  const claim = firstValue(headers[CLAIM]);
  if (claim?.trim().toLowerCase().startsWith('overage')) return { billed: true, header: `${CLAIM}: ${claim}` };
  for (const name of MARKERS) if (headers[name] !== undefined) return NOT_BILLED;
  return null;
}

const NOT_BILLED: ExtraUsage = Object.freeze({ billed: false, header: null });

/**
 * `extra_usage: avoid` (docs/seats.md): a 2xx billed past the plan is
 * relayed, and trips the seat's quota until the plan's reset —
 * `anthropic-ratelimit-unified-reset`, else the 5-hour window's, else
 * `cooldownMs` from now (the engine clamps it like every quota deadline).
 */
export function extraUsageQuota(
  billed: ExtraUsage,
  headers: UpstreamHeaders,
  status: number,
  now: number,
  cooldownMs: number,
  secrets: readonly string[],
): Evidence {
  const ahead = (name: string): number | null => {
    const at = secondsToMs(firstValue(headers[name]));
    return at !== null && at > now ? at : null;
  };
  const resetAt = ahead(RESET) ?? ahead(FIVE_HOUR_RESET) ?? now + cooldownMs;
  return { class: 'quota', cover: 'seat', resetAt, signal: buildSignal(status, null, billed.header, secrets) };
}
