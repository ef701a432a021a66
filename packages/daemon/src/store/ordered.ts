/**
 * Applies shared copies in the order Redis made them, not the order they
 * arrive in: every change in the store takes the next revision, and a copy
 * older than the last one applied is dropped. A copy that arrives while this
 * daemon's own write to the same slot is still out waits for that write's
 * answer (which merged everything before it), so a local change is never
 * undone for a moment by an older copy and then redone.
 */
interface Slot<T> {
  rev: number;
  pending: number;
  deferred: T | null;
}

export class Ordered<T extends { readonly rev: number }> {
  private readonly slots = new Map<string, Slot<T>>();

  constructor(private readonly apply: (id: string, value: T) => void) {}

  /** A write to `id` went out. */
  sent(id: string): void {
    this.slot(id).pending++;
  }

  /** The write's answer: the shared copy after it, or null when it kept nothing. */
  answered(id: string, value: T | null): void {
    const slot = this.slot(id);
    slot.pending = Math.max(0, slot.pending - 1);
    if (value !== null) this.offer(id, value);
    if (slot.pending === 0 && slot.deferred !== null) {
      const deferred = slot.deferred;
      slot.deferred = null;
      this.offer(id, deferred);
    }
  }

  /**
   * The write got no answer, or an error: Redis may not hold the change, so a
   * copy held back behind it may be older than what this daemon holds, and
   * applying it would undo the local change (a probe made ready, a reset) for
   * as long as Redis stays away. It is dropped: getting back in step reads
   * the whole shared state again.
   */
  failed(id: string): void {
    const slot = this.slot(id);
    slot.pending = Math.max(0, slot.pending - 1);
    slot.deferred = null;
  }

  /** A copy from the channel or a full read. */
  offer(id: string, value: T): void {
    const slot = this.slot(id);
    if (value.rev <= slot.rev) return;
    if (slot.pending > 0) {
      if (slot.deferred === null || value.rev > slot.deferred.rev) slot.deferred = value;
      return;
    }
    slot.rev = value.rev;
    this.apply(id, value);
  }

  /** Redis may have restarted (revisions begin again): what was applied before says nothing any more. */
  forget(): void {
    for (const slot of this.slots.values()) {
      slot.rev = 0;
      slot.deferred = null;
    }
  }

  private slot(id: string): Slot<T> {
    let slot = this.slots.get(id);
    if (slot === undefined) {
      slot = { rev: 0, pending: 0, deferred: null };
      this.slots.set(id, slot);
    }
    return slot;
  }
}
