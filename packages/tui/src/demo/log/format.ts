import type { BreakerEvent, DecisionEvent } from '@routeplane/shared';
import type { ChalkInstance } from 'chalk';
import { attemptPath } from '../../output/decision-line.js';
import type { SwarmTally } from '../agents/swarm.js';
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
  const ok = d.status >= 200 && d.status < 300;
  const probes = d.chain.filter((c) => c.state === 'probe').map((c) => `${c.seat}/${c.model}`);
  const flags = [
    d.fail_open ? colour.yellow('fail-open') : '',
    probes.length > 0 ? colour.cyan(`probe ${probes.join(', ')}`) : '',
    d.stream ? colour.dim('stream') : '',
  ].filter(Boolean);
  return [
    colour.dim(storyClock(d.ts, time)),
    (d.route ?? '(no model)').padEnd(9),
    `→ ${d.served_by ?? '—'}`.padEnd(28),
    attemptPath(d).padEnd(40),
    ok ? colour.green(String(d.status)) : colour.red(String(d.status)),
    `${d.duration_ms}ms`.padStart(7),
    ...flags,
  ].join('  ');
}

const ACTION_COLOUR: Record<BreakerEvent['action'], keyof Pick<ChalkInstance, 'red' | 'yellow' | 'cyan' | 'green'>> = {
  tripped: 'red',
  extended: 'yellow',
  probe_ready: 'cyan',
  probe_claimed: 'cyan',
  probe_failed: 'red',
  cleared: 'green',
  reset: 'green',
};

export function breakerLine(b: BreakerEvent, time: StoryTime, colour: ChalkInstance): string {
  const target = b.model === null ? b.seat : `${b.seat}/${b.model}`;
  const details: string[] = [];
  // A cooldown is news when it starts or doubles; on ready/claimed it would only repeat itself.
  if (b.cooldown_ms !== null && (b.action === 'tripped' || b.action === 'extended' || b.action === 'probe_failed')) {
    details.push(
      b.scope === 'seat_rate_limit' ? `retry-after ${storySpan(b.cooldown_ms, time)}` : `cooldown ${storySpan(b.cooldown_ms, time)}`,
    );
  }
  if (b.failed_probes > 0) details.push(`failed probes ${b.failed_probes}`);
  details.push(`(${b.reason})`);
  return [
    colour.dim(storyClock(b.ts, time)),
    colour[ACTION_COLOUR[b.action]](`◆ ${b.action}`.padEnd(15)),
    b.scope.padEnd(15),
    target.padEnd(22),
    details.join('  '),
  ].join('  ');
}

export function summaryLine(agents: SwarmTally, events: EventTally): string {
  const lost = agents.sent - agents.received;
  const parts = [
    `${agents.sent} requests sent`,
    `${agents.received} responses received${lost > 0 ? ` (${lost} without a response: ${agents.transportErrors} transport errors, ${agents.aborted} cut at stop)` : ''}`,
    plural(agents.errorStatuses, 'error answer'),
    plural(events.failovers, 'fail-over'),
    `${events.failOpen} fail-open`,
    `${plural(totalTrips(events), 'trip')} (${events.trips.seat_credit} credit, ${events.trips.seat_rate_limit} rate-limit, ${events.trips.model} model)`,
    plural(events.probesFailed, 'failed probe'),
    `${events.cleared} cleared`,
  ];
  return `summary: ${parts.join(', ')}`;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
