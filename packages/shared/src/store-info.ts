/** Where breakers live. */
export interface StoreInfo {
  kind: 'memory' | 'redis';
  state: 'ok' | 'degraded';
  /** when `state` last changed */
  since: number;
  /** daemons sharing it with a heartbeat in the last 5 s, this one included */
  daemons: number;
}
