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
}
