import type { Family } from '@routeplane/shared';
import { type ClassifyLimits, type Classified, classifyFailure } from './classify.js';
import { decodedBody } from './decode-body.js';
import { type FirstEvent, firstEvent, onlyComments } from './first-event.js';
import { firstValue, type UpstreamHeaders } from './retry-after.js';
import { errorOfDocument, isObject, MAX_ERROR_BODY_BYTES, own, parseJson, type UpstreamError } from './upstream-error.js';

/**
 * Errors inside a 2xx: OpenRouter answers some failures
 * with HTTP 200 and an `error` body or SSE data event, and an Anthropic
 * stream can open with `event: error`. The forwarder holds a 2xx until its
 * first body chunk and asks here: serve it, wait, or fail over.
 *
 * "First chunk" means the first one that holds more than SSE comments and
 * blank lines: OpenRouter sends `: OPENROUTER PROCESSING` keep-alives on
 * their own while it waits for its provider, so its error comes in a later
 * chunk. While an event stream holds nothing else, the answer is `wait` (the
 * relay keeps those chunks back, each wait bounded by `timeouts.idle_ms`, and
 * asks again with all of them joined); past 65,536 bytes of comments it is
 * served as it is.
 *
 * What counts as an error, on that chunk:
 * - a JSON body (whatever its content-type) whose first top-level key is
 *   `error` — or a one-element array whose object starts so (Gemini's wrapping);
 * - an OpenAI-family event stream whose first event with data is a JSON
 *   object with a non-null `error` member (`"error": null` says "no error");
 * - an Anthropic-family event stream whose first event is `event: error`.
 * The chunk may end anywhere. The rule for a cut:
 * - a JSON body or data event that opens with `{"error"` (or `[{"error"`) but
 *   does not parse is an error whose contents are unknown: classified as an
 *   embedded 500, so `model_error` — it cannot be the answer the agent asked
 *   for, and the next target may still serve;
 * - `event: error` whose data is cut short: the same;
 * - a chunk that ends before anything decisive (a half `event:` line, a data
 *   event whose `error` key, if any, would come after the cut) is served: the
 *   spec holds a 2xx for its first chunk, not more. An error event that shows up later
 *   is relayed as the upstream sent it; the relay finds it
 *   (stream-error-scan.ts) and the attempt counts as `stream_error` with
 *   model_error evidence, not as a success.
 * A compressed chunk is decoded first (decode-body.ts); one that cannot be
 * decoded is served.
 */
export interface FirstChunk {
  family: Family;
  /** the 2xx answer's headers (content-type, content-encoding, and any deadline headers) */
  headers: UpstreamHeaders;
  /** the body so far as received: its first chunk, or the comment-only chunks held back joined with the next */
  chunk: Buffer;
  now: number;
  secrets: readonly string[];
  /** the seat is the agent's own login (classify.ts) */
  login?: boolean;
}

export type FirstChunkReading =
  | { kind: 'answer' }
  /** an event stream with nothing but comments and blank lines so far */
  | { kind: 'comments' }
  /** `error` is null when the error's contents could not be read (a cut or malformed body) */
  | { kind: 'error'; error: UpstreamError | null };

export type FirstChunkVerdict =
  | { kind: 'serve' }
  /** only SSE comments so far: hold them and ask again with the next chunk joined on */
  | { kind: 'wait' }
  /**
   * the embedded error classified as if its status were `error.code` when
   * that is an integer 400–599 (OpenRouter), else 500 — so its verdict is
   * `fail_over`, or `pass_back` when it is the request's own fault (relay
   * the 2xx as the upstream sent it)
   */
  | { kind: 'error'; classified: Classified };

export function classifyEmbedded(first: FirstChunk, limits: ClassifyLimits): FirstChunkVerdict {
  const body = decodedBody(first.chunk, first.headers['content-encoding']);
  if (body === null) return SERVE;
  const reading = readFirstChunk(first.family, firstValue(first.headers['content-type']), body);
  switch (reading.kind) {
    case 'answer':
      return SERVE;
    case 'comments':
      return body.length <= MAX_ERROR_BODY_BYTES ? WAIT : SERVE;
    case 'error':
      return { kind: 'error', classified: classifyFailure(first, embeddedStatus(reading.error), reading.error, limits) };
  }
}

/** `error.code` when it is an integer HTTP error status (OpenRouter puts the real status there), else 500. */
export function embeddedStatus(error: UpstreamError | null): number {
  const code = error?.code;
  return typeof code === 'number' && Number.isInteger(code) && code >= 400 && code <= 599 ? code : 500;
}

const SERVE: FirstChunkVerdict = Object.freeze({ kind: 'serve' });
const WAIT: FirstChunkVerdict = Object.freeze({ kind: 'wait' });
const ANSWER: FirstChunkReading = Object.freeze({ kind: 'answer' });
const COMMENTS: FirstChunkReading = Object.freeze({ kind: 'comments' });
const UNREADABLE_ERROR: FirstChunkReading = Object.freeze({ kind: 'error', error: null });

const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const COLON = 0x3a;
const ERROR_KEY = Buffer.from('"error"');

/** Decides on a decoded first chunk (see the file comment for the rules). */
export function readFirstChunk(family: Family, contentType: string | undefined, body: Buffer): FirstChunkReading {
  const start = skipWhitespace(body, body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf ? 3 : 0);
  const first = body[start];
  // an event stream never starts with a bracket: a JSON error is JSON whatever it is labelled
  if (first === OPEN_BRACE || first === OPEN_BRACKET) return jsonBody(body, start);
  if (contentType === undefined || !contentType.toLowerCase().includes('text/event-stream')) return ANSWER;
  if (onlyComments(body, start)) return COMMENTS;
  return family === 'anthropic' ? anthropicStream(body, start) : openaiStream(body, start);
}

function jsonBody(body: Buffer, start: number): FirstChunkReading {
  if (!opensWithErrorKey(body, start)) return ANSWER;
  const document = parseJson(body.toString('utf8', start));
  if (document === undefined) return UNREADABLE_ERROR;
  return hasError(document) ? { kind: 'error', error: errorOfDocument(document) } : ANSWER;
}

function openaiStream(body: Buffer, start: number): FirstChunkReading {
  const event = firstEvent(body, start, (e) => e.data !== null);
  // most first events are answers: a substring test spares them a JSON parse
  if (event === null || event.data === null || !event.data.includes('"error"')) return ANSWER;
  return dataEvent(event);
}

function dataEvent(event: FirstEvent): FirstChunkReading {
  const data = event.data ?? '';
  const document = parseJson(data);
  if (document !== undefined)
    return isObject(document) && hasError(document) ? { kind: 'error', error: errorOfDocument(document) } : ANSWER;
  const text = Buffer.from(data);
  return opensWithErrorKey(text, skipWhitespace(text, 0)) ? UNREADABLE_ERROR : ANSWER;
}

function anthropicStream(body: Buffer, start: number): FirstChunkReading {
  const event = firstEvent(body, start, () => true);
  if (event === null || event.name !== 'error') return ANSWER;
  const document = event.data === null ? undefined : parseJson(event.data);
  return { kind: 'error', error: document === undefined ? null : errorOfDocument(document) };
}

/** A non-null `error` member on the object (or on the one object of a one-element array). */
function hasError(document: unknown): boolean {
  const holder = Array.isArray(document) && document.length === 1 ? document[0] : document;
  if (!isObject(holder)) return false;
  const error = own(holder, 'error');
  return error !== undefined && error !== null;
}

/** `{` (or `[` `{`) then `"error"` as the first key; a chunk may end anywhere after the key. */
function opensWithErrorKey(buf: Buffer, start: number): boolean {
  let i = start;
  if (buf[i] === OPEN_BRACKET) i = skipWhitespace(buf, i + 1);
  if (buf[i] !== OPEN_BRACE) return false;
  i = skipWhitespace(buf, i + 1);
  if (buf.length - i < ERROR_KEY.length || buf.compare(ERROR_KEY, 0, ERROR_KEY.length, i, i + ERROR_KEY.length) !== 0) return false;
  i = skipWhitespace(buf, i + ERROR_KEY.length);
  return i === buf.length || buf[i] === COLON;
}

function skipWhitespace(buf: Buffer, i: number): number {
  while (i < buf.length) {
    const c = buf[i];
    if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) break;
    i++;
  }
  return i;
}
