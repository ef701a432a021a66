/**
 * Everything the daemon tells the world, as discriminated unions on `type`.
 * Times are epoch milliseconds; durations end in `_ms`.
 */

export type Family = 'anthropic' | 'openai';

/** Why a target sits where it does in a request's chain. */
export type TripReason = 'credit' | 'rate_limit' | 'model_errors';
export type ChainEntryReason = TripReason | 'protocol';

export type ChainEntryState = 'healthy' | 'tripped' | 'probe' | 'skipped';

export interface DecisionChainEntry {
  seat: string;
  model: string;
  state: ChainEntryState;
  /** null when healthy; the primary reason otherwise. */
  reason: ChainEntryReason | null;
}

export type AttemptOutcome = 'ok' | 'http_402' | 'http_429' | 'http_5xx' | 'http_4xx' | 'timeout' | 'network' | 'aborted' | 'stream_error';

export interface Attempt {
  seat: string;
  model: string;
  outcome: AttemptOutcome;
  /** upstream HTTP status, null when none arrived (timeout, network). */
  status: number | null;
  ms: number;
}

interface EventBase {
  seq: number;
  ts: number;
}

export interface DecisionEvent extends EventBase {
  type: 'decision';
  request_id: string;
  /** the model the agent asked for; null when the body had none. */
  route: string | null;
  family: Family;
  stream: boolean;
  chain: DecisionChainEntry[];
  attempts: Attempt[];
  /** "seat/model" whose response the agent got, or null. */
  served_by: string | null;
  /** status sent to the agent (499 when the agent hung up). */
  status: number;
  duration_ms: number;
  fail_open: boolean;
}

export type BreakerAction = 'tripped' | 'extended' | 'probe_ready' | 'probe_claimed' | 'probe_failed' | 'cleared' | 'reset';

export type BreakerScope = 'seat_credit' | 'seat_rate_limit' | 'model';

export interface BreakerEvent extends EventBase {
  type: 'breaker';
  action: BreakerAction;
  scope: BreakerScope;
  seat: string;
  /** null for seat-wide scopes. */
  model: string | null;
  /** human words: "http_402", "3 consecutive failures", "probe ok", "reset", … */
  reason: string;
  cooldown_ms: number | null;
  /** probe-ready time (credit/model) or rate-limit end; null once cleared. */
  until: number | null;
  failed_probes: number;
}

/** Sent as the last line to a subscriber whose queue overflowed. */
export interface OverflowEvent {
  type: 'overflow';
}

export type DaemonEvent = DecisionEvent | BreakerEvent;
export type StreamedEvent = DaemonEvent | OverflowEvent;

/** An event before the bus stamps it. */
export type UnstampedEvent = Omit<DecisionEvent, 'seq' | 'ts'> | Omit<BreakerEvent, 'seq' | 'ts'>;
