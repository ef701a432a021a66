import { type DecisionChainEntry, formatDuration } from '@routeplane/shared';

/**
 * The `x-routeplane-decision` value:
 * the chain as this request ordered it, one `SEAT/MODEL(STATE)` per entry,
 * joined by ` -> `, skipped entries after all the others. ASCII only, at most
 * 1024 bytes.
 */

export const DECISION_HEADER = 'x-routeplane-decision';
export const MAX_DECISION_BYTES = 1024;

const ARROW = ' -> ';
const CUT = `${ARROW}...`;

/**
 * `chain` is the decision's chain in request order; its skipped entries must
 * be in configured order among themselves (the route table lists them so).
 */
export function decisionHeader(chain: readonly DecisionChainEntry[], failOpen: boolean): string {
  const words: string[] = [];
  for (const e of chain) if (e.state !== 'skipped') words.push(entryWords(e, failOpen));
  for (const e of chain) if (e.state === 'skipped') words.push(entryWords(e, failOpen));
  return fitted(words);
}

function entryWords(e: DecisionChainEntry, failOpen: boolean): string {
  return `${ascii(e.seat)}/${ascii(e.model)}(${stateWords(e, failOpen)})`;
}

/** A pin reads `pinned` whatever its breaker says: the agent ordered it. */
function stateWords(e: DecisionChainEntry, failOpen: boolean): string {
  if (e.state === 'skipped') return `skipped: ${e.reason ?? 'unknown'}`;
  if (e.pinned) return 'pinned';
  switch (e.state) {
    case 'healthy':
      return 'healthy';
    case 'probe':
      return 'probe';
    case 'tripped': {
      const reason = e.reason ?? 'unknown';
      if (failOpen) return `fail-open: ${reason}`;
      return e.left_ms === null ? `tripped: ${reason}` : `tripped: ${reason}, ${formatDuration(e.left_ms, 'down')}`;
    }
  }
}

/**
 * Each character outside printable ASCII becomes one `?` (a surrogate pair is
 * one character). The spec names non-ASCII; control characters are replaced
 * too, since a header value may not carry them (Node refuses to write one
 * above U+00FF at all). `x-routeplane-target` is written the same way.
 */
export function ascii(id: string): string {
  return /[^\x20-\x7e]/.test(id) ? id.replace(/[^\x20-\x7e]/gu, '?') : id;
}

/** Whole entries only: past 1024 bytes, the ones that fit and then ` -> ...`. */
function fitted(words: readonly string[]): string {
  const whole = words.join(ARROW);
  if (whole.length <= MAX_DECISION_BYTES) return whole;
  let kept = '';
  for (const w of words) {
    const next = kept === '' ? w : kept + ARROW + w;
    if (next.length + CUT.length > MAX_DECISION_BYTES) break;
    kept = next;
  }
  // not even the first entry fits beside the marker: the marker alone says there was more
  return kept === '' ? '...' : kept + CUT;
}
