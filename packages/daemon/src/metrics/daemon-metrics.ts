import type { SeatTokens } from '@routeplane/shared';
import type { Registry } from 'prom-client';

/** What `/metrics` is to the rest of the daemon: the registry to serve, and one observation made on the request path. */
export interface DaemonMetrics {
  readonly registry: Registry;
  /** an answer's head arrived from `seat` after `ms` */
  firstByte(seat: string, ms: number): void;
  /** the tokens reported for `seat`'s answers so far, summed over its models */
  tokensOf(seat: string): SeatTokens;
  stop(): void;
}
