import { type BreakerEvent, type BreakerScope, type DecisionEvent, signalWords } from '@routeplane/shared';
import type { ChalkInstance } from 'chalk';
import { decisionSegments } from '../../output/decision-line.js';
import { paint } from '../../output/segment.js';
import type { SwarmTally } from '../agents/swarm.js';
import { type SceneNow, sceneWords } from '../scenario/scenes.js';
import { totalTrips, type EventTally } from './tally.js';

/**
 * Lines of `routeplane demo --no-top`. Times and cooldowns are shown in
 * scenario time (real time × speed) so they read against the scenario's story.
 */
export interface StoryTime {
  /** epoch ms the demo started */
  startedAt: number;
  speed: number;
}

/** `0:12.3`: scenario time of an event. */
export function storyClock(ts: number, time: StoryTime): string {
  const secs = Math.max(0, ((ts - time.startedAt) / 1000) * time.speed);
  const minutes = Math.floor(secs / 60);
  return `${minutes}:${(secs - minutes * 60).toFixed(1).padStart(4, '0')}`;
}

/** A real duration in scenario seconds: `8s`, `16s`, `6.1s`. */
export function storySpan(ms: number, time: StoryTime): string {
  const secs = (ms / 1000) * time.speed;
  const whole = Math.round(secs);
  return Math.abs(secs - whole) < 0.05 ? `${whole}s` : `${secs.toFixed(1)}s`;
}

export function decisionLine(d: DecisionEvent, time: StoryTime, colour: ChalkInstance): string {
  return paint(decisionSegments(d, { time: (ts) => storyClock(ts, time), routeWidth: 9, markStream: true }), colour);
}

const ACTION_COLOUR: Record<BreakerEvent['action'], keyof Pick<ChalkInstance, 'red' | 'yellow' | 'cyan' | 'green'>> = {
  tripped: 'red',
  extended: 'yellow',
  probe_ready: 'cyan',
  probe_claimed: 'cyan',
  probe_failed: 'red',
  cleared: 'green',
  reset: 'green',
  refused: 'yellow',
  skipped: 'yellow',
};

export function breakerLine(b: BreakerEvent, time: StoryTime, colour: ChalkInstance): string {
  // a provider breaker has no seat: its key after the kind names it (`provider:URL/model`)
  const target = b.seat === null ? b.key.slice(b.key.indexOf(':') + 1) : b.model === null ? b.seat : `${b.seat}/${b.model}`;
  const details: string[] = [];
  // A cooldown is news when it starts or doubles; on ready/claimed it would only repeat itself.
  const news = b.action === 'tripped' || b.action === 'extended' || b.action === 'probe_failed';
  if (news && (b.scope === 'seat_quota' || b.scope === 'model_quota') && b.until !== null) {
    // a quota waits for the provider's stated reset, not for a cooldown
    details.push(`resets in ${storySpan(b.until - b.ts, time)}`);
  } else if (b.cooldown_ms !== null && news) {
    details.push(
      b.scope === 'seat_rate_limit' ? `retry-after ${storySpan(b.cooldown_ms, time)}` : `cooldown ${storySpan(b.cooldown_ms, time)}`,
    );
  }
  if (b.failed_probes > 0) details.push(`failed probes ${b.failed_probes}`);
  if (b.action === 'refused' && b.breaker) details.push(`refused ${b.breaker.refused_count}`);
  if (b.action === 'skipped' && b.breaker) details.push(`skipped ${b.breaker.skipped_count}`);
  details.push(`(${b.reason})`);
  if (news && b.signal) details.push(signalWords(b.signal));
  return [
    colour.dim(storyClock(b.ts, time)),
    colour[ACTION_COLOUR[b.action]](`◆ ${b.action}`.padEnd(15)),
    b.scope.padEnd(15),
    target.padEnd(22),
    details.join('  '),
  ].join('  ');
}

/** A new scene of the story: `0:10.0  ▶ scene 3/10: seat-b is rate-limited — …`; a replay says so first. */
export function sceneLine(scene: SceneNow, ts: number, time: StoryTime, colour: ChalkInstance): string {
  return `${colour.dim(storyClock(ts, time))}  ${colour.bold(`▶ ${sceneWords(scene)}`)}`;
}

export function summaryLine(agents: SwarmTally, events: EventTally): string {
  const lost = agents.sent - agents.received;
  const parts = [
    `${agents.sent} requests sent`,
    `${agents.received} responses received${lost > 0 ? ` (${lost} without a response: ${agents.transportErrors} transport errors, ${agents.aborted} cut at stop)` : ''}`,
    plural(agents.errorStatuses, 'error answer'),
    plural(events.failovers, 'fail-over'),
    `${events.failOpen} fail-open`,
    `${plural(totalTrips(events), 'trip')} (${tripKinds(events)})`,
    plural(events.probesFailed, 'failed probe'),
    `${events.cleared} cleared`,
  ];
  return `summary: ${parts.join(', ')}`;
}

const TRIP_WORDS: Record<BreakerScope, string> = {
  seat_credit: 'credit',
  seat_rate_limit: 'rate-limit',
  model: 'model',
  seat_quota: 'seat quota',
  model_quota: 'model quota',
  seat_key: 'key rejected',
  provider_model: 'provider',
};

/** The three the built-in scenario plays always; the others when they happened. */
function tripKinds(events: EventTally): string {
  const always = new Set<BreakerScope>(['seat_credit', 'seat_rate_limit', 'model']);
  return (Object.keys(TRIP_WORDS) as BreakerScope[])
    .filter((scope) => always.has(scope) || events.trips[scope] > 0)
    .map((scope) => `${events.trips[scope]} ${TRIP_WORDS[scope]}`)
    .join(', ');
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
