/**
 * The last `slots` texts, kept as UTF-8 in one buffer: however many go by,
 * no object is made per text and none is left for the garbage collector. The
 * texts sit end to end; when the next does not fit, the kept ones move to the
 * front (and the buffer doubles if they fill more than half of it), so each
 * text is copied about once more in its life and the buffer stays within
 * twice what the kept texts need.
 */
export class TextRing {
  private bytes: Buffer;
  /** byte offset and length of each slot's text */
  private readonly starts: Int32Array;
  private readonly lengths: Int32Array;
  /** the slot of the oldest kept text */
  private first = 0;
  private count = 0;
  /** where the next text's bytes go */
  private head = 0;

  constructor(
    private readonly slots: number,
    initialBytes = 64 * 1024,
  ) {
    this.bytes = Buffer.allocUnsafeSlow(initialBytes);
    this.starts = new Int32Array(slots);
    this.lengths = new Int32Array(slots);
  }

  get size(): number {
    return this.count;
  }

  push(text: string): void {
    if (this.count === this.slots) {
      this.first = (this.first + 1) % this.slots;
      this.count--;
    }
    const room = this.bytes.length - this.head;
    // a UTF-16 code unit is at most 3 bytes of UTF-8: while that fits, nothing needs measuring
    if (room < text.length * 3) {
      const needed = Buffer.byteLength(text);
      if (room < needed) this.makeRoom(needed);
    }
    const slot = (this.first + this.count) % this.slots;
    const written = this.bytes.write(text, this.head, 'utf8');
    this.starts[slot] = this.head;
    this.lengths[slot] = written;
    this.head += written;
    this.count++;
  }

  /** The last `n` texts (all kept when omitted), oldest first. */
  last(n = this.count): string[] {
    const take = Math.min(n, this.count);
    const out: string[] = [];
    for (let i = this.count - take; i < this.count; i++) {
      const slot = (this.first + i) % this.slots;
      const start = this.starts[slot]!;
      out.push(this.bytes.toString('utf8', start, start + this.lengths[slot]!));
    }
    return out;
  }

  /** Moves the kept texts to the front, into a buffer twice the size when they would fill more than half of it. */
  private makeRoom(needed: number): void {
    const from = this.count === 0 ? this.head : this.starts[this.first]!;
    const kept = this.head - from;
    if (this.bytes.length >= 2 * (kept + needed)) this.bytes.copyWithin(0, from, this.head);
    else {
      const grown = Buffer.allocUnsafeSlow(Math.max(2 * this.bytes.length, 2 * (kept + needed)));
      this.bytes.copy(grown, 0, from, this.head);
      this.bytes = grown;
    }
    for (let i = 0; i < this.count; i++) this.starts[(this.first + i) % this.slots]! -= from;
    this.head = kept;
  }
}
