import type { Breaker, BreakerScope, Signal, TripReason } from './breaker/breaker.js';
import type { SeatUsage } from './usage-window.js';
import type { StoreInfo } from './store-info.js';

/**
 * Everything the daemon tells the world, as discriminated unions on `type`.
 * Times are epoch milliseconds; durations end in `_ms`.
 */

export type Family = 'anthropic' | 'openai';
export type Lane = 'foreground' | 'background';
export type Balance = 'ordered' | 'spread' | 'cost' | 'latency' | 'drain';

/**
 * Why a chain entry sits where it does, or why it was not tried; a skip of
 * one request alone (not the route's) is a `RequestSkipReason`.
 */
export type ChainEntryReason = TripReason | 'protocol' | 'drained' | 'reserve' | RequestSkipReason;

/** A target this request cannot be sent to: a passthrough seat, and the request carried no credentials. */
export type RequestSkipReason = 'no_credentials';

export type ChainEntryState = 'healthy' | 'tripped' | 'probe' | 'skipped';

export interface DecisionChainEntry {
  seat: string;
  model: string;
  state: ChainEntryState;
  /** null when healthy; the primary reason otherwise. */
  reason: ChainEntryReason | null;
  /** the agent pinned this entry */
  pinned: boolean;
  /** ms until probe-ready or the deadline, when tripped; null otherwise */
  left_ms: number | null;
}

export type AttemptOutcome = 'ok' | 'http_402' | 'http_429' | 'http_5xx' | 'http_4xx' | 'timeout' | 'network' | 'aborted' | 'stream_error';

/** What one upstream answer is evidence of. */
export type EvidenceClass = 'ok' | 'credit' | 'quota' | 'rate_limit' | 'model_error' | 'key_rejected' | 'request' | 'none';

export interface Attempt {
  seat: string;
  model: string;
  outcome: AttemptOutcome;
  /** upstream HTTP status, null when none arrived (timeout, network). */
  status: number | null;
  ms: number;
  /** null when the agent hung up: that says nothing about the upstream */
  evidence: EvidenceClass | null;
  signal: Signal | null;
  /** 0 for a first attempt on a target, n for its n-th retry */
  retry: number;
}

/** Token usage the upstream reported for the request. */
export interface Usage {
  input_tokens: number | null;
  output_tokens: number | null;
  cache_read_tokens: number | null;
  cache_write_tokens: number | null;
}

interface EventBase {
  seq: number;
  ts: number;
}

export interface DecisionEvent extends EventBase {
  type: 'decision';
  request_id: string;
  /** the route it resolved to (after aliases); the requested model when it resolved to none; null without a model. */
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
  /** what the agent sent as `model`, before aliases and pins */
  requested: string | null;
  /** the agent's id, null without agents */
  agent: string | null;
  lane: Lane;
  /** first 12 hex digits of SHA-256 of the session key, or null — never the key */
  session: string | null;
  balance: Balance;
  /** a background request answered 503 with no attempt */
  skipped: boolean;
  usage: Usage | null;
  /** what it cost in the config's currency, from `usage` and the serving target's price; null without a price */
  cost: number | null;
  /** the product token of the agent's user-agent, ≤ 60 characters */
  client: string | null;
}

export type BreakerAction =
  | 'tripped'
  | 'extended'
  | 'probe_ready'
  | 'probe_claimed'
  | 'probe_failed'
  | 'cleared'
  | 'reset'
  /** refused_count changed (coalesced: at most one such event per breaker in a short window) */
  | 'refused'
  /** skipped_count changed (coalesced) */
  | 'skipped';

export interface BreakerEvent extends EventBase {
  type: 'breaker';
  action: BreakerAction;
  /** v1's scope word */
  scope: BreakerScope;
  /** null for provider breakers */
  seat: string | null;
  /** null for seat-wide breakers. */
  model: string | null;
  /** human words: "http_402", "3 consecutive failures", "probe succeeded", "reset", … */
  reason: string;
  cooldown_ms: number | null;
  /** probe-ready time or deadline; null once ended. */
  until: number | null;
  failed_probes: number;
  /** the Breaker's key, also when `breaker` is null */
  key: string;
  /** the whole Breaker after the change; null when the change ended it */
  breaker: Breaker | null;
  /** what caused a trip, an extension or a failed probe */
  signal: Signal | null;
  /** the daemon that made the change (`hostname:pid`) */
  origin: string;
}

/** A reload was tried. */
export interface ReloadEvent extends EventBase {
  type: 'reload';
  ok: boolean;
  /** config problems, one line each, as `config check` prints them */
  errors: string[];
}

/** The breaker store changed state. */
export interface StoreEvent extends EventBase {
  type: 'store';
  store: StoreInfo;
}

/**
 * A seat's usage windows changed: the whole
 * `SeatUsage` after the change, at most once per seat per second (the first
 * change at once, later ones at the second's end), so a monitor follows the
 * gauges without asking for snapshots.
 */
export interface UsageEvent extends EventBase {
  type: 'usage';
  seat: string;
  usage: SeatUsage;
}

/** Sent as the last line to a subscriber whose queue overflowed. */
export interface OverflowEvent {
  type: 'overflow';
}

export type DaemonEvent = DecisionEvent | BreakerEvent | ReloadEvent | StoreEvent | UsageEvent;
export type StreamedEvent = DaemonEvent | OverflowEvent;

type Unstamped<E> = Omit<E, 'seq' | 'ts'>;
/** An event before the bus stamps it. */
export type UnstampedEvent =
  | Unstamped<DecisionEvent>
  | Unstamped<BreakerEvent>
  | Unstamped<ReloadEvent>
  | Unstamped<StoreEvent>
  | Unstamped<UsageEvent>;
