import type { Breaker, BreakerAction, RedisEndpoint, SharedStoreConfig, StoreInfo } from '@routeplane/shared';
import type { BreakerStore } from '../breaker/store.js';
import type { Clock } from '../breaker/types.js';
import type { DaemonLog } from '../log.js';
import { BreakerSync, type SharedChange, type UnsharedEnd } from './breaker-sync.js';
import { Connection, type Outcome, script } from './connection.js';
import type { EngineLink } from './engine-link.js';
import { StoreHealth } from './health.js';
import { CLAIM, END, HEARTBEAT, PUT, RELEASE, SNAPSHOT, STREAK } from './lua.js';
import { Ordered } from './ordered.js';
import { readMessage, readSharedBreaker, readSharedStreak, type SharedStreak } from './wire.js';

const SCRIPTS = {
  put: script(PUT),
  end: script(END),
  claim: script(CLAIM),
  release: script(RELEASE),
  streak: script(STREAK),
  snapshot: script(SNAPSHOT),
  heartbeat: script(HEARTBEAT),
};

/** a daemon counts as sharing the store while its heartbeat is this recent */
const HEARTBEAT_WINDOW_MS = 5_000;
const HEARTBEAT_EVERY_MS = 1_000;
/** after a failure, the next attempt to get back in step */
const RETRY_AFTER_MS = 150;
/** operations off the request path (getting back in step, heartbeats) may take longer than `timeout_ms` */
const BACKGROUND_DEADLINE_MS = 1_000;

export interface RedisStoreOptions {
  shared: SharedStoreConfig;
  endpoint: RedisEndpoint;
  /** from `password_env`; never logged (the daemon's secrets redact it too) */
  password: string | null;
  daemonId: string;
  clock: Clock;
  /** one line on stderr (already redacted by the caller's log) */
  log: DaemonLog;
  /** a `store` event */
  announce: (info: StoreInfo) => void;
}

/**
 * Breakers shared by every daemon on one Redis and key prefix.
 * Routing never waits for it: each daemon routes
 * from its own table; local transitions are written through the Lua scripts
 * (lua.ts) and published, and the others' arrive on the channel and are
 * installed through the engine. Only a probe claim is asked for on the
 * request path, within `timeout_ms`; a claim that cannot be made in Redis is
 * not made at all. When Redis is away the store says `degraded`, skips its
 * writes (keeping the ends it made meanwhile), and once Redis is back gives
 * those ends again, pushes its live breakers, reads the shared state and says
 * `ok` again.
 */
export class RedisStore implements BreakerStore {
  private readonly connection: Connection;
  private readonly health: StoreHealth;
  private readonly prefix: string;
  private readonly channelName: string;
  private link: EngineLink | null = null;
  private sync: BreakerSync | null = null;
  private readonly streakOrder: Ordered<SharedStreak>;
  /** the claims this daemon holds, by breaker key: its token */
  private readonly claims = new Map<string, string>();
  /** why the engine gave a claim back (its event said so just before `release`) */
  private readonly releaseReasons = new Map<string, string>();
  /**
   * Claims sent whose answer never came (timeout, lost connection): the script may still run
   * once Redis answers again, leaving a claim nobody acts on that would hold every daemon's
   * probe back until it expires (max_cooldown_secs). Given back when in step again.
   */
  private readonly unsettledClaims = new Map<string, string>();
  /** writes go out: both connections up, subscribed, and no failure since the last time in step */
  private writable = false;
  private subscribed = false;
  /** a shared copy is being installed: the engine's announcements of it are not local changes */
  private applying = false;
  private recovering = false;
  private closed = false;
  private heartbeat: NodeJS.Timeout | null = null;
  private retry: NodeJS.Timeout | null = null;
  private settledStart: (() => void) | null = null;

  constructor(private readonly opts: RedisStoreOptions) {
    const { endpoint, shared } = opts;
    this.prefix = shared.key_prefix;
    this.channelName = `${shared.key_prefix}events`;
    const where = `${endpoint.tls ? 'rediss' : 'redis'}://${endpoint.host.includes(':') ? `[${endpoint.host}]` : endpoint.host}:${endpoint.port}/${endpoint.db} prefix "${shared.key_prefix}"`;
    this.health = new StoreHealth(opts.clock.now(), where, opts.announce, opts.log);
    this.streakOrder = new Ordered((name, s) => this.link?.setStreak(name, s.count, s.lastFailureAt, s.seats));
    this.connection = new Connection(endpoint, opts.password, {
      ready: () => void this.recover(),
      lost: (which, why) => this.fail(`${which === 'channel' ? 'subscription' : 'connection'}: ${why}`),
    });
  }

  /** The engine this store shares; connecting starts here. */
  attach(link: EngineLink): void {
    // what the store installs is announced with its origin; it must not be written back as a local change
    const applying =
      <A extends unknown[]>(f: (...args: A) => void) =>
      (...args: A) => {
        this.applying = true;
        try {
          f(...args);
        } finally {
          this.applying = false;
        }
      };
    this.link = { ...link, install: applying(link.install), setStreak: applying(link.setStreak) };
    this.sync = new BreakerSync(this.link, (key, end) => void this.replay(key, end));
  }

  /**
   * Connects and waits until the store is in step or has failed once — at
   * most a short bound: a daemon whose Redis is unreachable starts anyway,
   * degraded, and keeps trying.
   */
  start(): Promise<void> {
    const started = new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, Math.max(250, this.opts.shared.timeout_ms * 4));
      timer.unref();
      this.settledStart = () => {
        clearTimeout(timer);
        resolve();
      };
    });
    this.connection.open();
    this.heartbeat = setInterval(() => void this.beat(), HEARTBEAT_EVERY_MS);
    this.heartbeat.unref();
    return started;
  }

  info(): StoreInfo {
    return this.health.info();
  }

  changed(key: string, breaker: Breaker | null, action: BreakerAction, reason = ''): void {
    if (this.sync === null || this.applying) return;
    if (!this.writable) return this.changedAway(this.sync, key, breaker, action, reason);
    if (breaker === null) return this.ended(key, action, reason);
    // the claim script already wrote the claim; a release or a stale claim is the release script's
    if (action === 'probe_claimed') return;
    if (action === 'probe_ready' && this.claims.delete(key)) {
      this.releaseReasons.set(key, reason);
      return;
    }
    const token = this.claims.get(key) ?? '';
    if (action === 'probe_failed') this.claims.delete(key);
    void this.put(key, breaker, action, reason, 'change', token);
  }

  claim(key: string, token: string, now: number): boolean | Promise<boolean> {
    // a claim that cannot be made in Redis is not made here either: the probe waits
    if (!this.writable || this.sync === null) return false;
    const sync = this.sync;
    const { maxCooldownMs } = this.limits();
    const args = [this.prefix, key, token, String(now), String(maxCooldownMs), this.opts.daemonId];
    // a claim is a write like any other: an older copy arriving meanwhile must not undo it
    sync.sent(key);
    return this.connection.run(SCRIPTS.claim, args, this.opts.shared.timeout_ms).then((out) => {
      if (!out.ok) {
        sync.failed(key);
        this.unsettledClaims.set(key, token);
        this.fail(`probe claim: ${out.why}`);
        return false;
      }
      const [got, raw] = out.value as [number, string];
      sync.answered(key, answeredCopy(raw, got === 1 ? 'probe claimed' : 'probe claimed elsewhere'));
      if (got === 1) {
        this.claims.set(key, token);
        return true;
      }
      // the engine gives the refused claim back once this answer reaches it; then the holder's copy is taken in again
      setImmediate(() => sync.reconcile(key));
      return false;
    });
  }

  release(key: string, token: string): void {
    this.claims.delete(key);
    const reason = this.releaseReasons.get(key) ?? 'probe not reached';
    this.releaseReasons.delete(key);
    void this.giveBack(key, token, reason);
  }

  streak(name: string, count: number, lastFailureAt: number | null): void {
    if (!this.writable || this.link === null || this.applying) return;
    const seats = count === 0 ? [] : this.link.streakSeats(name);
    const at = lastFailureAt ?? this.opts.clock.now();
    void this.writeStreak(name, count === 0 ? 'reset' : 'fail', at, seats, count);
  }

  get restored(): number {
    return 0;
  }

  /** A daemon that never started simply disconnects. */
  abandon(): Promise<void> {
    return this.close();
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.heartbeat) clearInterval(this.heartbeat);
    if (this.retry) clearTimeout(this.retry);
    if (this.writable) {
      await this.connection.run(SCRIPTS.heartbeat, [this.prefix, this.opts.daemonId, String(HEARTBEAT_WINDOW_MS), 'leave'], 250);
    }
    this.writable = false;
    this.connection.close();
  }

  // ── writing ─────────────────────────────────────────────────────────────

  /**
   * Redis cannot be written: nothing goes out, but a trip's time is kept,
   * and an end (a reset, a clear by a success) is kept to be given again once
   * Redis is back — else the others' copies would bring the breaker back.
   */
  private changedAway(sync: BreakerSync, key: string, breaker: Breaker | null, action: BreakerAction, reason: string): void {
    if (breaker !== null) return sync.noteLocal(key, breaker);
    if (action !== 'cleared' && action !== 'reset') return;
    // a rate limit's deadline passed: every daemon sees that by its own clock (as in `ended`)
    if (action === 'cleared' && key.startsWith('rate_limit:')) return;
    sync.endedUnshared(key, action, reason);
  }

  /** An end Redis did not take, given again: it ends the shared copy only if that is the same trip or an older one. */
  private async replay(key: string, end: UnsharedEnd): Promise<boolean> {
    const sync = this.sync;
    if (!this.writable || sync === null) return false;
    const args = [this.prefix, key, end.action, end.reason, this.opts.daemonId, String(end.since), 'replay'];
    sync.sent(key);
    const out = await this.connection.run(SCRIPTS.end, args, BACKGROUND_DEADLINE_MS);
    if (out.ok) {
      sync.answered(key, endAnswer(out.value, end.action, end.reason, this.opts.daemonId, end.since));
      return true;
    }
    sync.failed(key);
    this.fail(`giving back an end made while degraded: ${out.why}`);
    return false;
  }

  /** A claim given back by its token: only the holder's counts, so one that never landed changes nothing. */
  private async giveBack(key: string, token: string, reason: string): Promise<boolean> {
    const sync = this.sync;
    if (!this.writable || sync === null) return false;
    const { maxCooldownMs } = this.limits();
    const args = [this.prefix, key, token, this.opts.daemonId, reason, String(this.opts.clock.now()), String(maxCooldownMs)];
    sync.sent(key);
    const out = await this.connection.run(SCRIPTS.release, args, this.opts.shared.timeout_ms);
    if (!out.ok) {
      sync.failed(key);
      this.fail(`probe release: ${out.why}`);
      return false;
    }
    sync.answered(key, answeredCopy(out.value, reason));
    return true;
  }

  /** The claims whose answer never came, given back once in step again. */
  private async giveBackUnsettled(): Promise<boolean> {
    const given = await Promise.all(
      [...this.unsettledClaims].map(async ([key, token]) => {
        const ok = await this.giveBack(key, token, 'probe claim unanswered');
        if (ok && this.unsettledClaims.get(key) === token) this.unsettledClaims.delete(key);
        return ok;
      }),
    );
    return !given.includes(false);
  }

  private ended(key: string, action: BreakerAction, reason: string): void {
    const sync = this.sync!;
    this.claims.delete(key);
    sync.outgoing(key, null);
    // a rate limit's deadline passed: every daemon sees that by its own clock, and the key expired with it
    if (action === 'cleared' && key.startsWith('rate_limit:')) return;
    const ended = sync.sinceOf(key);
    const since = action === 'reset' ? '' : String(ended ?? '');
    sync.sent(key);
    void this.connection
      .run(SCRIPTS.end, [this.prefix, key, action, reason, this.opts.daemonId, since], this.opts.shared.timeout_ms)
      .then((out) => {
        if (out.ok) return sync.answered(key, endAnswer(out.value, action, reason, this.opts.daemonId, ended));
        sync.failed(key);
        if (action === 'cleared' || action === 'reset') sync.endedUnshared(key, action, reason);
        this.fail(`writing a breaker: ${out.why}`);
      });
  }

  private async put(key: string, b: Breaker, action: BreakerAction, reason: string, mode: 'change' | 'push', token = ''): Promise<boolean> {
    const sync = this.sync!;
    const counts = sync.outgoing(key, b);
    const { maxCooldownMs } = this.limits();
    const args = [
      this.prefix,
      key,
      JSON.stringify({ b, o: this.opts.daemonId }),
      action,
      reason,
      String(counts.refused),
      String(counts.skipped),
      mode,
      String(maxCooldownMs),
      token,
      String(this.opts.clock.now()),
    ];
    sync.sent(key);
    const deadline = mode === 'push' ? BACKGROUND_DEADLINE_MS : this.opts.shared.timeout_ms;
    const out = await this.connection.run(SCRIPTS.put, args, deadline);
    if (!out.ok) {
      sync.failed(key);
      this.fail(`writing a breaker: ${out.why}`);
      return false;
    }
    sync.answered(key, answeredCopy(out.value, reason));
    return true;
  }

  private async writeStreak(name: string, mode: 'fail' | 'reset' | 'push', at: number, seats: string[], count: number): Promise<boolean> {
    const { windowMs } = this.limits();
    const args = [this.prefix, name, mode, String(at), JSON.stringify(seats), String(count), String(windowMs), this.opts.daemonId];
    this.streakOrder.sent(name);
    const deadline = mode === 'push' ? BACKGROUND_DEADLINE_MS : this.opts.shared.timeout_ms;
    const out = await this.connection.run(SCRIPTS.streak, args, deadline);
    if (!out.ok) {
      this.streakOrder.failed(name);
      this.fail(`writing a streak: ${out.why}`);
      return false;
    }
    this.streakOrder.answered(name, typeof out.value === 'string' && out.value !== '' ? readSharedStreak(out.value) : null);
    return true;
  }

  // ── reading ─────────────────────────────────────────────────────────────

  private onMessage(text: string): void {
    const m = readMessage(text);
    if (m === null) return;
    if (m.kind === 'streak') {
      this.streakOrder.offer(m.streak.name, m.streak);
      return;
    }
    this.sync?.offer(m.key, {
      rev: m.rev,
      breaker: m.breaker,
      action: m.action,
      reason: m.reason,
      origin: m.origin,
      endedSince: m.endedSince,
    });
  }

  // ── state ───────────────────────────────────────────────────────────────

  private fail(why: string): void {
    if (this.closed) return;
    this.writable = false;
    this.health.toDegraded(this.opts.clock.now(), why);
    this.settledStart?.();
    this.scheduleRecovery();
  }

  private scheduleRecovery(): void {
    if (this.retry !== null || this.closed) return;
    this.retry = setTimeout(() => {
      this.retry = null;
      void this.recover();
    }, RETRY_AFTER_MS);
    this.retry.unref();
  }

  /**
   * Back in step (at start, and after every outage): subscribe, give again
   * the ends made while away, push the live local breakers and streaks (merged by the scripts' rules), read the
   * whole shared state once, beat, and say `ok`.
   */
  private async recover(): Promise<void> {
    if (this.recovering || this.closed || this.writable || this.link === null || this.sync === null) return;
    if (!this.connection.ready) return;
    this.recovering = true;
    try {
      const failed = await this.getInStep(this.link, this.sync);
      if (failed !== null) throw new Error(failed);
      const beat = await this.beatOnce();
      if (!beat.ok) throw new Error(`heartbeat: ${beat.why}`);
      if (this.writable && !this.closed) {
        this.health.toOk(this.opts.clock.now(), beat.value);
        this.settledStart?.();
      }
    } catch (err) {
      this.fail(err instanceof Error ? err.message : String(err));
    } finally {
      this.recovering = false;
    }
  }

  /** Returns null when in step, or why not. */
  private async getInStep(link: EngineLink, sync: BreakerSync): Promise<string | null> {
    if (!this.subscribed) {
      const sub = await this.connection.subscribe(this.channelName, (text) => this.onMessage(text), BACKGROUND_DEADLINE_MS);
      if (!sub.ok) return `subscribing: ${sub.why}`;
      this.subscribed = true;
    }
    // Redis may have restarted: its revisions begin again
    sync.forgetRevisions();
    this.streakOrder.forget();
    this.writable = true;
    // the ends made while away first: a live breaker pushed next may be a later trip of the same key
    const replayed = await Promise.all(sync.unsharedEnds().map(([key, end]) => this.replay(key, end)));
    if (replayed.includes(false)) return 'giving back the ends made while degraded failed';
    if (!(await this.giveBackUnsettled())) return 'giving back the probe claims left unanswered failed';
    const pushed = await Promise.all([
      ...link.liveBreakers().map((b) => this.put(b.key, b, 'tripped', 'shared again after an outage', 'push')),
      ...link.streaks().map((s) => this.writeStreak(s.name, 'push', s.lastFailureAt ?? this.opts.clock.now(), s.seats, s.count)),
    ]);
    if (pushed.includes(false)) return 'pushing local breakers failed';
    const snap = await this.connection.run(SCRIPTS.snapshot, [this.prefix], BACKGROUND_DEADLINE_MS);
    if (!snap.ok) return `reading the shared state: ${snap.why}`;
    const [breakers, streaks] = snap.value as [string[], string[]];
    for (const raw of breakers) {
      const s = readSharedBreaker(raw);
      if (s !== null) sync.offer(s.breaker.key, { rev: s.rev, breaker: s.breaker, action: null, reason: 'shared state', origin: s.origin });
    }
    for (const raw of streaks) {
      const s = readSharedStreak(raw);
      if (s !== null) this.streakOrder.offer(s.name, s);
    }
    return null;
  }

  private beatOnce(): Promise<Outcome<number>> {
    return this.connection
      .run(SCRIPTS.heartbeat, [this.prefix, this.opts.daemonId, String(HEARTBEAT_WINDOW_MS), 'beat'], BACKGROUND_DEADLINE_MS)
      .then((out) => (out.ok ? { ok: true, value: Number(out.value) } : out));
  }

  private async beat(): Promise<void> {
    if (this.closed) return;
    if (!this.writable) return this.recover();
    const out = await this.beatOnce();
    if (out.ok) this.health.daemonsNow(out.value);
    else this.fail(`heartbeat: ${out.why}`);
  }

  private limits(): { maxCooldownMs: number; windowMs: number } {
    const l = this.link?.limits() ?? { maxCooldownMs: 900_000, windowMs: 300_000 };
    return { maxCooldownMs: Math.ceil(l.maxCooldownMs), windowMs: l.windowMs };
  }
}

/** The shared copy a script answers with (empty: it kept none), as the change it is to this daemon. */
function answeredCopy(value: unknown, reason: string): SharedChange | null {
  const shared = typeof value === 'string' && value !== '' ? readSharedBreaker(value) : null;
  return shared === null ? null : { rev: shared.rev, breaker: shared.breaker, action: null, reason, origin: shared.origin };
}

/**
 * The end a script published (its revision), as the change it is to this
 * daemon; null when nothing was ended. Carries the ended trip's time, so a
 * later trip made here meanwhile stands (breaker-sync.ts `apply`).
 */
function endAnswer(value: unknown, action: BreakerAction, reason: string, origin: string, endedSince: number | null): SharedChange | null {
  return typeof value === 'number' && value > 0 ? { rev: value, breaker: null, action, reason, origin, endedSince } : null;
}
