import { clockTime, type DaemonEvent, type NotifyConfig } from '@routeplane/shared';
import type { DaemonContext } from '../context.js';
import type { DaemonLog } from '../log.js';
import { redact } from '../signals/plain-text.js';
import { type Delivery, type InFlight, postWebhook, runCommand } from './delivery.js';
import type { Notification, NotifyFacts } from './notification.js';
import { Debounce, FAILURE_SAID_EVERY_MS, NotificationRules } from './rules.js';

/** How a notification is sent (tests give shorter limits). */
export interface Deliverers {
  command(argv: readonly string[], text: string): { done: Promise<Delivery>; inFlight: InFlight };
  webhook(url: string, notification: Notification): { done: Promise<Delivery>; inFlight: InFlight };
}

const DELIVERERS: Deliverers = { command: (argv, text) => runCommand(argv, text), webhook: (url, n) => postWebhook(url, n) };

/**
 * `notify` (the config's, as it stands after reloads): the rules decide,
 * this sends. Events are only queued when they come — the bus calls its
 * listeners on the request path — and looked at on the next turn of the
 * event loop, so no request waits for a rule, a program or a webhook. A
 * command or webhook that fails is said once per FAILURE_SAID_EVERY_MS on
 * the daemon's log; it is never fatal.
 */
export class Notifier {
  private readonly rules: NotificationRules;
  private readonly failures = new Debounce(FAILURE_SAID_EVERY_MS);
  private readonly facts: NotifyFacts;
  private readonly inFlight = new Set<InFlight>();
  private readonly unsubscribe: () => void;
  private queue: DaemonEvent[] = [];
  private scheduled: NodeJS.Immediate | null = null;
  private closed = false;

  constructor(
    private readonly ctx: DaemonContext,
    private readonly log: DaemonLog,
    private readonly deliver: Deliverers = DELIVERERS,
  ) {
    this.rules = new NotificationRules(() => ctx.clock.now());
    this.facts = {
      self: ctx.daemonId,
      goesTo: (seat, model) => goesTo(ctx, seat, model),
      usageOf: (seat) => ctx.usage.liveOf(seat),
      wallClock: (at, now) => clockTime(at, now, -new Date(at).getTimezoneOffset()),
    };
    this.unsubscribe = ctx.bus.subscribe((event) => this.onEvent(event));
  }

  private onEvent(event: DaemonEvent): void {
    if (this.ctx.config.notify === null || !mayNotify(event)) return;
    this.queue.push(event);
    this.scheduled ??= setImmediate(() => this.drain());
  }

  private drain(): void {
    this.scheduled = null;
    const events = this.queue;
    this.queue = [];
    const notify = this.ctx.config.notify;
    if (notify === null || this.closed) return;
    for (const event of events) {
      const found = this.rules.decide(event, notify.on, this.facts);
      if (found !== null) this.send({ ...found, text: redact(found.text, this.ctx.secrets) }, notify);
    }
  }

  private send(notification: Notification, notify: NotifyConfig): void {
    if (notify.command !== null) this.follow('command', this.deliver.command(notify.command, notification.text));
    if (notify.webhook !== null) this.follow('webhook', this.deliver.webhook(notify.webhook, notification));
  }

  private follow(channel: 'command' | 'webhook', sent: { done: Promise<Delivery>; inFlight: InFlight }): void {
    this.inFlight.add(sent.inFlight);
    void sent.done.then((delivery) => {
      this.inFlight.delete(sent.inFlight);
      if (delivery.ok || this.closed || !this.failures.pass(channel, this.ctx.clock.now())) return;
      this.log(`notify: ${delivery.why}; routing goes on (a failing ${channel} is said once per 10 minutes)`, 'error');
    });
  }

  /** Stops listening and ends what is still being sent. */
  close(): void {
    this.closed = true;
    this.unsubscribe();
    if (this.scheduled !== null) clearImmediate(this.scheduled);
    for (const sent of this.inFlight) sent.stop();
    this.inFlight.clear();
  }
}

/** The events a rule may turn into a notification (a cheap look, on the request path). */
function mayNotify(event: DaemonEvent): boolean {
  switch (event.type) {
    case 'decision':
      return event.fail_open;
    case 'breaker':
      return event.action === 'tripped' || event.action === 'cleared';
    case 'usage':
    case 'store':
      return true;
    case 'reload':
      return false;
  }
}

/** For each route that uses `seat` (or `seat/model`): the first healthy other target, as the chain is ordered now. */
function goesTo(ctx: DaemonContext, seat: string, model: string | null): string[] | null {
  const names = new Set<string>();
  let used = false;
  const isIt = (t: { seat: string; model: string }) => t.seat === seat && (model === null || t.model === model);
  for (const route of ctx.influence.routes()) {
    if (!route.chain.some(isIt)) continue;
    used = true;
    const next = route.chain.find((t) => t.state === 'healthy' && !isIt(t));
    if (next !== undefined) names.add(next.seat === seat ? `${next.seat}/${next.model}` : next.seat);
  }
  return used ? [...names] : null;
}
