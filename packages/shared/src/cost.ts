import type { Price } from './config/schema.js';
import type { Family, Usage } from './events.js';

/**
 * What one decision cost, in the config's currency: each token the upstream
 * reported is priced once, Σ tokens × price per million / 10⁶. The OpenAI
 * family counts cached prompt tokens inside its prompt tokens, so its input
 * part is what remains once they are taken out; an Anthropic input already
 * leaves them apart. A count not reported adds nothing.
 *
 * Null when there is no price, or when the seat is a plan (the agent's own
 * login): a plan's traffic has no per-request price. Called once per
 * decision, never per chunk.
 */
export function costOf(usage: Usage | null, price: Price | null, family: Family, seatIsPlan: boolean): number | null {
  if (price === null || seatIsPlan) return null;
  if (usage === null) return 0;
  const cacheRead = usage.cache_read_tokens ?? 0;
  const reportedInput = usage.input_tokens ?? 0;
  const input = family === 'openai' ? Math.max(0, reportedInput - cacheRead) : reportedInput;
  const sum =
    input * price.input +
    (usage.output_tokens ?? 0) * price.output +
    cacheRead * price.cache_read +
    (usage.cache_write_tokens ?? 0) * price.cache_write;
  // to a billionth of a unit: 0.0036, not 0.0036000000000000003, in logs and sums
  return Math.round(sum * 1000) / 1e9;
}

/** What `balance: cost` orders a priced target by when it declares no `cost_per_mtok`: cache parts do not count. */
export function orderingPrice(price: Price): number {
  return price.input + price.output;
}
