import type { Family } from '@routeplane/shared';

/**
 * An error event later in a served stream: the bytes still go to the agent as the upstream sent them — the
 * upstream's error event already is the family's error shape — but the
 * attempt is no success: it counts as `model_error` evidence.
 *
 * The relay feeds every served chunk here, so this must stay cheap: one
 * native `indexOf` over the chunk for the word `error` (rare in a stream
 * that is going well), a look at the few bytes around each hit, and a few
 * bytes carried across the chunk boundary for a marker split between two
 * chunks. No allocation, no decoding, no parsing, no regex.
 *
 * Why these markers cannot come from model text: everything a model writes
 * reaches a stream inside a JSON string, and a JSON string holds no raw line
 * feed (it is written `\n`) and no bare `"` (it is written `\"`).
 * - `LF event: error` (the space optional) then LF or CR: a raw LF in an event stream only ever
 *   ends an SSE line, so this is a line that starts with the field `event`
 *   and the value `error` exactly — the error event of the Anthropic family,
 *   and of the OpenAI Responses API. Model text saying "event: error" is in a
 *   data line, behind an escaped `\n` at most.
 * - `"error":{` or `"error": {` (OpenAI family only): a bare `"` before `:`
 *   can only close a JSON string that is a key, so this is a member named
 *   `error` whose value is an object — OpenRouter's mid-stream
 *   `data: {"error":{…}}` (also beside `choices`) and a Responses
 *   `response.failed` whose `response.error` is set. Text that quotes it (a
 *   tool call's `arguments` is a string) reads `\"error\":{`, whose closing
 *   quote is escaped, so it does not match; and a Responses event's
 *   `"error":null` (no error) does not match either.
 * A compressed stream is not scanned (its bytes say nothing without
 * decoding), nor is anything but an event stream.
 */
export class StreamErrorScan {
  private readonly keys: boolean;
  /**
   * The last bytes seen (one fewer than the longest marker), then room for
   * the next chunk's first bytes: any marker split between two chunks lies
   * whole in there. Allocated once per stream. It starts as LF, so the
   * stream's very first line also counts as a line start.
   */
  private readonly seam = Buffer.alloc(2 * KEEP);
  private tailLength = 1;

  constructor(family: Family) {
    this.keys = family !== 'anthropic';
    this.seam[0] = LF;
  }

  /** True when this chunk (read after the chunks before it) holds an error marker. */
  saw(chunk: Buffer): boolean {
    const { seam } = this;
    // byte by byte: for a dozen bytes a loop is cheaper than a native call
    const head = Math.min(chunk.length, KEEP);
    for (let k = 0; k < head; k++) seam[this.tailLength + k] = chunk[k]!;
    const seamLength = this.tailLength + head;
    const found = this.inSeam(seamLength) || holdsMarker(chunk, chunk.length, this.keys);
    // the new tail: the last KEEP bytes of the seam's stream (this chunk's, or the old tail's and all of this one)
    const source = chunk.length >= KEEP ? chunk : seam;
    const sourceEnd = chunk.length >= KEEP ? chunk.length : seamLength;
    const keep = Math.min(sourceEnd, KEEP);
    for (let k = 0; k < keep; k++) seam[k] = source[sourceEnd - keep + k]!;
    this.tailLength = keep;
    return found;
  }

  /** The seam is a couple of dozen bytes: read in place, without a native call. */
  private inSeam(length: number): boolean {
    const { seam } = this;
    for (let i = 0; i + WORD.length <= length; i++) {
      if (seam[i] === WORD[0] && isWordAt(seam, i) && markerAround(seam, i, length, this.keys)) return true;
    }
    return false;
  }
}

/** An event stream answer in plain bytes: the only kind worth scanning. */
export function scannable(contentType: string | undefined, contentEncoding: string | undefined): boolean {
  const plain = contentEncoding === undefined || contentEncoding === '' || contentEncoding.toLowerCase() === 'identity';
  return plain && contentType?.toLowerCase().includes('text/event-stream') === true;
}

const LF = 0x0a;
const CR = 0x0d;
const SPACE = 0x20;
const QUOTE = 0x22;
const COLON = 0x3a;
const OPEN_BRACE = 0x7b;
const WORD = Buffer.from('error');
const EVENT_FIELD = Buffer.from('\nevent:');
/** the longest marker, `LF event: error CR`, less one byte: what a split marker can leave in the chunk before */
const KEEP = EVENT_FIELD.length + 1 + WORD.length + 1 - 1;

function holdsMarker(bytes: Buffer, length: number, keys: boolean): boolean {
  for (let at = bytes.indexOf(WORD); at !== -1; at = bytes.indexOf(WORD, at + WORD.length)) {
    if (markerAround(bytes, at, length, keys)) return true;
  }
  return false;
}

function isWordAt(bytes: Buffer, at: number): boolean {
  for (let k = 0; k < WORD.length; k++) if (bytes[at + k] !== WORD[k]) return false;
  return true;
}

/**
 * `error` at `at` is a marker: the value of an `event` field line
 * (`LF event:` and an optional space before, LF or CR after), or, with
 * `keys`, a key whose value is an object (`"` before, `":{` or `": {` after).
 * A marker that does not lie whole within `length` bytes is not decided here.
 */
function markerAround(bytes: Buffer, at: number, length: number, keys: boolean): boolean {
  const end = at + WORD.length;
  if (end >= length) return false;
  const after = bytes[end];
  if (after === LF || after === CR) {
    const field = (bytes[at - 1] === SPACE ? at - 1 : at) - EVENT_FIELD.length;
    if (field >= 0 && bytes.compare(EVENT_FIELD, 0, EVENT_FIELD.length, field, field + EVENT_FIELD.length) === 0) return true;
  }
  if (!keys || after !== QUOTE || at === 0 || bytes[at - 1] !== QUOTE || end + 2 >= length || bytes[end + 1] !== COLON) return false;
  const value = bytes[end + 2] === SPACE ? end + 3 : end + 2;
  return value < length && bytes[value] === OPEN_BRACE;
}
