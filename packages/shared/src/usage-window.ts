/** One usage window a provider reported. */
export interface UsageWindow {
  name: string;
  /** a fraction, possibly above 1 */
  utilization: number;
  reset_at: number | null;
  status: string | null;
}

export interface SeatUsage {
  observed_at: number;
  windows: UsageWindow[];
  /**
   * whether the last answer carrying `anthropic-ratelimit-unified-*` headers
   * was billed as extra usage (past the plan); null before any such answer
   */
  extra_usage: boolean | null;
}
