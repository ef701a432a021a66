import type { Family } from './signals.js';

/**
 * The usage headers a seat sends on every answer, 2xx and errors alike, as
 * the real providers do:
 * an Anthropic subscription its unified window (`anthropic-ratelimit-unified-5h-*`
 * and the overall `-status`, `-reset`, `-representative-claim`), an OpenAI
 * key its request window (`x-ratelimit-{limit,remaining,reset}-requests`,
 * the reset a Go duration). Pure.
 */
export interface UsageReport {
  /** `5h` or `7d` (Anthropic) */
  readonly window: string;
  /** a fraction; above 1 once the window is used up */
  readonly utilization: number;
  /** epoch seconds the window resets */
  readonly resetAt: number;
  /** real seconds until then */
  readonly resetInSecs: number;
}

/** What a provider's request window allows, for an OpenAI seat's counts. */
const REQUEST_LIMIT = 5000;

const CLAIM: Record<string, string> = { '5h': 'five_hour', '7d': 'seven_day' };

export function usageHeaders(family: Family, report: UsageReport): Record<string, string> {
  const used = Math.max(0, report.utilization);
  if (family === 'anthropic') {
    const status = used >= 1 ? 'rejected' : used >= 0.8 ? 'allowed_warning' : 'allowed';
    const prefix = `anthropic-ratelimit-unified-${report.window}`;
    return {
      'anthropic-ratelimit-unified-status': status,
      'anthropic-ratelimit-unified-reset': String(report.resetAt),
      'anthropic-ratelimit-unified-representative-claim': CLAIM[report.window] ?? report.window,
      [`${prefix}-utilization`]: used.toFixed(2),
      [`${prefix}-reset`]: String(report.resetAt),
      [`${prefix}-status`]: status,
    };
  }
  const remaining = Math.max(0, Math.round(REQUEST_LIMIT * (1 - Math.min(1, used))));
  return {
    'x-ratelimit-limit-requests': String(REQUEST_LIMIT),
    'x-ratelimit-remaining-requests': String(remaining),
    'x-ratelimit-reset-requests': goDuration(report.resetInSecs),
  };
}

/** A Go duration as OpenAI writes its resets: `6m0s`, `1h2m3s`, `12ms`. */
export function goDuration(secs: number): string {
  if (secs < 1) return `${Math.max(0, Math.round(secs * 1000))}ms`;
  const whole = Math.round(secs);
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const s = whole % 60;
  if (h > 0) return `${h}h${m}m${s}s`;
  if (m > 0) return `${m}m${s}s`;
  return `${s}s`;
}
