import type { Breaker, BreakerAction, StoreInfo } from '@routeplane/shared';

/**
 * Where breakers are kept beyond this engine's own table: nowhere (memory,
 * the default) or a store several daemons share. The
 * engine always routes from its local table; a store only hears of local
 * transitions, may refuse a probe claim another daemon holds, and feeds the
 * others' transitions back through `InfluenceEngine.applyRemote`. So the
 * memory store is a seam that costs nothing on the request path, not an `if`.
 */
export interface BreakerStore {
  /** Connects (a shared store), waiting a short bound at most: a daemon starts even when its store is away. */
  start(): Promise<void>;
  info(): StoreInfo;
  /** A local transition of one breaker: its state after the change, or null when it ended; `reason` as its event says it. */
  changed(key: string, breaker: Breaker | null, action: BreakerAction, reason: string): void;
  /** Claim the probe of `key` for `token`, cluster-wide; a promise when the answer must be asked for. */
  claim(key: string, token: string, now: number): boolean | Promise<boolean>;
  /** Give back a claim that went unresolved (the request never reached the target). */
  release(key: string, token: string): void;
  /** A target's or provider's streak of model errors changed (0 when reset). */
  streak(name: string, count: number, lastFailureAt: number | null): void;
  /** breakers taken in from outside at start (a state file); 0 for the others */
  readonly restored: number;
  /** The daemon is shutting down: a last save, a clean disconnect. */
  close(): Promise<void>;
  /** The daemon never started: let go of everything, and write nothing (another daemon may own the file). */
  abandon(): Promise<void>;
}

/** Breakers live in this daemon's memory only: a restart (without a state file) clears them. */
export class MemoryStore implements BreakerStore {
  private readonly since: number;

  constructor(now: number) {
    this.since = now;
  }

  async start(): Promise<void> {}

  info(): StoreInfo {
    return { kind: 'memory', state: 'ok', since: this.since, daemons: 1 };
  }

  changed(): void {}

  claim(): boolean {
    return true;
  }

  release(): void {}

  streak(): void {}

  get restored(): number {
    return 0;
  }

  async close(): Promise<void> {}

  async abandon(): Promise<void> {}
}
