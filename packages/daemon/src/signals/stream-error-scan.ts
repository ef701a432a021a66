import type { Family } from '@routeplane/shared';

/**
 * An error event later in a served stream (spec/signals.md "Errors inside a
 * 2xx"): the bytes still go to the agent as the upstream sent them — the
 * upstream's error event already is the family's error shape — but the
 * attempt is no success: it counts as `model_error` evidence.
 *
 * The relay feeds every served chunk here, so this must stay cheap: a few
 * native `indexOf` calls over the chunk for fixed byte markers, and a few
 * bytes carried across the chunk boundary for a marker split between two
 * chunks. No decoding, no parsing, no regex.
 *
 * Why these markers cannot come from model text: everything a model writes
 * reaches a stream inside a JSON string, and a JSON string holds no raw line
 * feed (it is written `\n`) and no bare `"` (it is written `\"`).
 * - `LF event: error` then LF or CR: a raw LF in an event stream only ever
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
  private readonly markers: readonly Buffer[];
  /**
   * The last bytes seen, one fewer than the longest marker: any marker split
   * between two chunks lies in these plus the next chunk's first bytes. It
   * starts as LF, so the stream's very first line also counts as a line start.
   */
  private tail: Buffer = LF;

  constructor(family: Family) {
    this.markers = family === 'anthropic' ? EVENT_MARKERS : OPENAI_MARKERS;
  }

  /** True when this chunk (read after the chunks before it) holds an error marker. */
  saw(chunk: Buffer): boolean {
    const found = this.inSeam(chunk) || holdsMarker(chunk, this.markers);
    this.tail = lastBytes(this.tail, chunk);
    return found;
  }

  private inSeam(chunk: Buffer): boolean {
    const seam = Buffer.concat([this.tail, chunk.subarray(0, KEEP)]);
    return holdsMarker(seam, this.markers);
  }
}

/** An event stream answer in plain bytes: the only kind worth scanning. */
export function scannable(contentType: string | undefined, contentEncoding: string | undefined): boolean {
  const plain = contentEncoding === undefined || contentEncoding === '' || contentEncoding.toLowerCase() === 'identity';
  return plain && contentType?.toLowerCase().includes('text/event-stream') === true;
}

const LF = Buffer.from('\n');
const EVENT_MARKERS: readonly Buffer[] = ['\nevent: error\n', '\nevent: error\r', '\nevent:error\n', '\nevent:error\r'].map((m) =>
  Buffer.from(m),
);
const OPENAI_MARKERS: readonly Buffer[] = [...EVENT_MARKERS, Buffer.from('"error":{'), Buffer.from('"error": {')];
const KEEP = Math.max(...OPENAI_MARKERS.map((m) => m.length)) - 1;

function holdsMarker(bytes: Buffer, markers: readonly Buffer[]): boolean {
  for (const marker of markers) if (bytes.indexOf(marker) !== -1) return true;
  return false;
}

/** The last KEEP bytes of `tail` + `chunk`, copied so the chunk itself is not kept alive. */
function lastBytes(tail: Buffer, chunk: Buffer): Buffer {
  if (chunk.length >= KEEP) return Buffer.from(chunk.subarray(chunk.length - KEEP));
  const joined = Buffer.concat([tail, chunk]);
  return joined.length > KEEP ? joined.subarray(joined.length - KEEP) : joined;
}
