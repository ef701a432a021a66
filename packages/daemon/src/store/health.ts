import type { StoreInfo } from '@routeplane/shared';
import type { DaemonLog } from '../log.js';

/**
 * The shared store's state as people see it: `ok`, or
 * `degraded` while Redis cannot be used — said once on stderr and once as a
 * `store` event per change, never once per failed operation. A change of the
 * number of daemons sharing the store is an event too, so `top`'s header
 * follows it without re-asking.
 */
export class StoreHealth {
  private state: StoreInfo['state'] = 'degraded';
  private since: number;
  private daemons = 1;
  private said = false;

  constructor(
    now: number,
    private readonly where: string,
    private readonly announce: (info: StoreInfo) => void,
    private readonly log: DaemonLog,
  ) {
    this.since = now;
  }

  get ok(): boolean {
    return this.state === 'ok';
  }

  info(): StoreInfo {
    return { kind: 'redis', state: this.state, since: this.since, daemons: this.daemons };
  }

  toOk(now: number, daemons: number): void {
    this.daemons = Math.max(1, daemons);
    if (this.state === 'ok') return;
    this.state = 'ok';
    this.since = now;
    this.said = true;
    this.log(`shared breaker store ok: ${this.where}, ${this.daemons} daemon(s) sharing it`, 'info', 'store');
    this.announce(this.info());
  }

  toDegraded(now: number, why: string): void {
    if (this.state === 'degraded' && this.said) return;
    this.state = 'degraded';
    this.since = now;
    this.said = true;
    this.log(`shared breaker store degraded (${why}): routing goes on with this daemon's own breakers`, 'error', 'store');
    this.announce(this.info());
  }

  daemonsNow(daemons: number): void {
    const n = Math.max(1, daemons);
    if (n === this.daemons) return;
    this.daemons = n;
    if (this.state === 'ok') this.announce(this.info());
  }
}
