import type { Usage } from '@routeplane/shared';

/**
 * The token usage an upstream reported, read from the bytes of a served answer without
 * parsing the answer: every `"usage":` member found is read on its own (its
 * object is small) and mapped to the four counts. Anthropic reports it in
 * `message_start` (input, cache) and `message_delta` (output) of a stream, or
 * at the end of a whole message; OpenAI in a stream's last chunk, in
 * Responses' `response.completed`, or at the end of a whole completion. So a
 * caller hands over the first and last pieces of a body, not all of it.
 */

/**
 * Searched without its opening quote: JSON is full of quotes, and a search
 * that starts from the first byte stops at every one of them (several times
 * slower on streamed events); the quote is checked where the rest matched.
 */
const NEEDLE = Buffer.from('usage":');
/** a usage object is a few hundred bytes; past this it is not what we look for */
const MAX_USAGE_BYTES = 4096;
const OPEN = 0x7b; // {
const CLOSE = 0x7d; // }
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

export function emptyUsage(): Usage {
  return { input_tokens: null, output_tokens: null, cache_read_tokens: null, cache_write_tokens: null };
}

/** Folds every usage member found in `piece` into `into`; later reports of a count win (a stream's delta completes its start). */
export function readUsage(piece: Buffer, into: Usage): boolean {
  let found = false;
  // the member's key starts one byte before the match, at its opening quote
  let at = piece.indexOf(NEEDLE, 1) - 1;
  while (at >= 0) {
    // `\"usage\":` inside generated text is escaped; only a real member counts
    if (piece[at] === QUOTE && (at === 0 || piece[at - 1] !== BACKSLASH)) {
      const object = objectAt(piece, at + 1 + NEEDLE.length);
      if (object !== null && fold(object, into)) found = true;
    }
    at = piece.indexOf(NEEDLE, at + 1 + NEEDLE.length) - 1;
  }
  return found;
}

/** The JSON object that starts at (or after whitespace from) `from`, when it is whole within the piece. */
function objectAt(buf: Buffer, from: number): unknown {
  let i = from;
  while (i < buf.length && (buf[i] === 0x20 || buf[i] === 0x0a || buf[i] === 0x0d || buf[i] === 0x09)) i++;
  if (buf[i] !== OPEN) return null;
  const start = i;
  let depth = 0;
  let inString = false;
  const end = Math.min(buf.length, start + MAX_USAGE_BYTES);
  for (; i < end; i++) {
    const c = buf[i];
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) inString = true;
    else if (c === OPEN) depth++;
    else if (c === CLOSE && --depth === 0) {
      try {
        return JSON.parse(buf.toString('utf8', start, i + 1));
      } catch {
        return null;
      }
    }
  }
  return null;
}

function count(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : null;
}

function member(obj: unknown, key: string): unknown {
  return obj !== null && typeof obj === 'object' && !Array.isArray(obj) ? (obj as Record<string, unknown>)[key] : undefined;
}

/** Both families' names for the four counts. */
function fold(usage: unknown, into: Usage): boolean {
  const input = count(member(usage, 'input_tokens')) ?? count(member(usage, 'prompt_tokens'));
  const output = count(member(usage, 'output_tokens')) ?? count(member(usage, 'completion_tokens'));
  const cacheRead =
    count(member(usage, 'cache_read_input_tokens')) ??
    count(member(member(usage, 'prompt_tokens_details'), 'cached_tokens')) ??
    count(member(member(usage, 'input_tokens_details'), 'cached_tokens'));
  const cacheWrite = count(member(usage, 'cache_creation_input_tokens'));
  if (input === null && output === null && cacheRead === null && cacheWrite === null) return false;
  if (input !== null) into.input_tokens = input;
  if (output !== null) into.output_tokens = output;
  if (cacheRead !== null) into.cache_read_tokens = cacheRead;
  if (cacheWrite !== null) into.cache_write_tokens = cacheWrite;
  return true;
}
