import type { Usage } from '@routeplane/shared';
import { emptyUsage, readUsage } from './read-usage.js';

/** How much of each end of a body is kept to look at: a stream's first and last events fit easily. */
const END_BYTES = 8192;
/** Up to this many bytes, kept chunks are joined and read as one. */
const JOIN_BYTES = 32_768;
/** A usage member split between two big chunks is found in this much of each side of the seam. */
const SEAM_BYTES = 4096;
const EMPTY = Buffer.alloc(0);

/**
 * Sees a served body go by and remembers only its first and last few
 * kilobytes (as the chunks that hold them): the usage members live there (a
 * stream's first and last events, a whole answer's end). Reading happens
 * once, at the end, so the relay's per-chunk cost is keeping a reference. A
 * compressed body is not read.
 */
export class UsageTap {
  private readonly head: Buffer[] = [];
  private headBytes = 0;
  /** the tail's chunks are `tail[tailStart…]`: letting the oldest go is a step of an index, not an array shift */
  private tail: Buffer[] = [];
  private tailStart = 0;
  private tailBytes = 0;
  /** a chunk went by that neither end kept: the head and the tail are not contiguous */
  private gap = false;

  constructor(private readonly readable: boolean) {}

  push(chunk: Buffer): void {
    if (!this.readable) return;
    if (this.headBytes < END_BYTES) {
      this.head.push(chunk);
      this.headBytes += chunk.length;
      return;
    }
    const tail = this.tail;
    tail.push(chunk);
    this.tailBytes += chunk.length;
    while (tail.length - this.tailStart > 1 && this.tailBytes - tail[this.tailStart]!.length >= END_BYTES) {
      this.tailBytes -= tail[this.tailStart]!.length;
      tail[this.tailStart++] = EMPTY;
      this.gap = true;
    }
    // a stream of thousands of small events: drop what was let go once it outnumbers what is kept
    if (this.tailStart >= 64 && this.tailStart * 2 >= tail.length) {
      this.tail = tail.slice(this.tailStart);
      this.tailStart = 0;
    }
  }

  /** What the body reported, or null. */
  usage(): Usage | null {
    if (this.head.length === 0) return null;
    const usage = emptyUsage();
    const tail = this.tailStart === 0 ? this.tail : this.tail.slice(this.tailStart);
    const runs = this.gap ? [this.head, tail] : [this.head.concat(tail)];
    let found = false;
    for (const run of runs) {
      // small pieces (a stream's events one by one) are read joined; big ones one by one, with their seams
      const bytes = run.reduce((n, c) => n + c.length, 0);
      if (run.length > 1 && bytes <= JOIN_BYTES) {
        if (readUsage(Buffer.concat(run, bytes), usage)) found = true;
        continue;
      }
      for (let i = 0; i < run.length; i++) {
        const chunk = run[i]!;
        if (readUsage(chunk, usage)) found = true;
        const next = run[i + 1];
        if (next !== undefined) {
          const seam = Buffer.concat([chunk.subarray(Math.max(0, chunk.length - SEAM_BYTES)), next.subarray(0, SEAM_BYTES)]);
          if (readUsage(seam, usage)) found = true;
        }
      }
    }
    return found ? usage : null;
  }
}
