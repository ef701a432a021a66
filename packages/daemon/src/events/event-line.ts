import type { DaemonEvent } from '@routeplane/shared';

/**
 * Every event is written by several consumers — the decision log, and each
 * subscriber of the control socket — and serialising it was a visible share
 * of a request's CPU. The bus hands the same event object to every listener
 * in turn, so the last event's encodings are remembered: each event is
 * serialised once however many consumers write it.
 */

/**
 * Event consumers gather lines this long before each write (one write for
 * all of them). A write per event, or even per event-loop turn, cost each
 * proxied request a visible share at 16 agents — few requests end in one
 * turn — and 4 subscribers made it four times that. A person watching `top`
 * or `logs -f` cannot see 10 ms.
 */
export const EVENT_WRITE_WINDOW_MS = 10;

let lastEvent: DaemonEvent | null = null;
let lastSeq = 0;
let lastJson = '';
let lastStreamedLine: string | null = null;
let lastStreamedBytes = 0;

/** The event as JSON text, serialised once however many consumers ask for it. */
export function jsonOf(event: DaemonEvent): string {
  // the seq too: an object emitted twice is stamped anew each time
  if (event !== lastEvent || event.seq !== lastSeq) {
    lastJson = JSON.stringify(event);
    lastEvent = event;
    lastSeq = event.seq;
    lastStreamedLine = null;
  }
  return lastJson;
}

/** The control socket's line, `{"event": …}` — byte for byte `encodeLine({ event })`. */
export function encodeEventLine(event: DaemonEvent): string {
  const json = jsonOf(event);
  if (lastStreamedLine === null) {
    lastStreamedLine = `{"event":${json}}\n`;
    lastStreamedBytes = Buffer.byteLength(lastStreamedLine);
  }
  return lastStreamedLine;
}

/** `Buffer.byteLength(encodeEventLine(event))`, computed once per event (subscribers bound their queues in bytes). */
export function eventLineBytes(event: DaemonEvent): number {
  encodeEventLine(event);
  return lastStreamedBytes;
}
