import { setFlagsFromString } from 'node:v8';

/**
 * How much V8 lets the old generation grow past what survived the last full
 * collection before it starts the next one: 200% (a factor of 3). Set once,
 * by the process that runs the daemon (`routeplane serve`); it applies to the
 * whole process, so the daemon library does not set it on its own.
 *
 * Why: V8 picks this factor from how fast objects are promoted — few, in a
 * proxy — and lands near its floor (1.1–1.5). But a proxy's garbage is mostly
 * request and socket buffers, memory outside the heap that V8 counts toward
 * the same limit. With 200 KB bodies the buffers alone reached that limit
 * every ~60 ms: a full mark-compact of the ~20 MB heap each time (bench,
 * 200 KB SSE at c=16: 20–40 mark-compacts in 3 s and 650–840 µs of CPU per
 * request, against 0–2 and 455–530 µs with the factor fixed at 3; 2 KB
 * requests unchanged, as their factor was already high). V8's own ceiling on
 * a machine with this much memory is 4. bench/NOTES.md has the measurements.
 */
export const HEAP_GROWING_PERCENT = 200;

export function tuneHeapForProxying(): void {
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}
