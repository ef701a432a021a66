import { setMaxListeners } from 'node:events';
import { Agent as HttpAgent } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ScenarioClock } from '../clock.js';
import { Random } from '../random.js';
import type { Range } from '../scenario/schema.js';
import { sendAgentRequest, type AgentOutcome, type Family } from './agent-request.js';

export interface SwarmRoute {
  model: string;
  family: Family;
  weight: number;
}

export interface SwarmOptions {
  /** routeplane's HTTP URL */
  url: string;
  routes: readonly SwarmRoute[];
  agents: number;
  clock: ScenarioClock;
  streamShare: number;
  thinkSecs: Range;
  seed?: number;
  /** every request's single outcome, as it arrives */
  onOutcome?: (record: OutcomeRecord) => void;
  /** the login the agents are logged in with, per family (a passthrough seat of that family accepts it) */
  logins?: ReadonlyMap<Family, string>;
}

export interface OutcomeRecord {
  agent: number;
  route: string;
  stream: boolean;
  outcome: AgentOutcome;
}

export interface SwarmTally {
  sent: number;
  /** requests that got an HTTP response (read to its end or cut) */
  received: number;
  transportErrors: number;
  aborted: number;
  /** responses whose status was not 2xx */
  errorStatuses: number;
  /** 2xx bodies that were cut or did not parse, plus streams that ended in an error event */
  incomplete: number;
}

const PROMPTS = [
  'Fix the failing test in src/cache.test.ts',
  'Explain why the config reload does not take effect',
  'Write a migration that adds an index on users.email',
  'Review this diff for race conditions',
  'Summarise the last three commits',
  'Rename the Foo service to Billing across the repo',
];

/**
 * A swarm of simulated coding agents: each loops "think, send one request to
 * routeplane, read the whole answer" until stopped. Stopping lets in-flight
 * requests finish (so every request gets its one response) and only cuts them
 * after a grace period.
 */
export class Swarm {
  readonly tally: SwarmTally = { sent: 0, received: 0, transportErrors: 0, aborted: 0, errorStatuses: 0, incomplete: 0 };
  private readonly httpAgent = new HttpAgent({ keepAlive: true });
  private readonly stopping = new AbortController();
  private readonly cutting = new AbortController();
  private loops: Promise<void>[] = [];

  constructor(private readonly opts: SwarmOptions) {
    if (!opts.routes.some((r) => r.weight > 0)) throw new Error('the swarm needs at least one route with weight above 0');
    // Every agent listens on these two signals; that is by design, not a leak.
    setMaxListeners(0, this.stopping.signal, this.cutting.signal);
  }

  start(): void {
    for (let i = 0; i < this.opts.agents; i++) this.loops.push(this.runAgent(i));
  }

  /** Stops sending; waits for in-flight requests up to `graceMs`, then cuts them. */
  async stop(graceMs: number): Promise<void> {
    this.stopping.abort();
    const all = Promise.all(this.loops);
    const timer = setTimeout(() => this.cutting.abort(), graceMs);
    try {
      await all;
    } finally {
      clearTimeout(timer);
      this.httpAgent.destroy();
    }
  }

  /** Cuts in-flight requests now (a second Ctrl-C); each counts as aborted. */
  cut(): void {
    this.stopping.abort();
    this.cutting.abort();
  }

  /** requests sent that have not yet got their outcome */
  get inFlight(): number {
    return this.tally.sent - this.tally.received - this.tally.transportErrors - this.tally.aborted;
  }

  private async runAgent(index: number): Promise<void> {
    const random = new Random((this.opts.seed ?? 1) * 7919 + index);
    const name = `agent-${String(index + 1).padStart(2, '0')}`;
    // Agents start spread out, as a real team's would.
    await this.think(random.between([0, this.opts.thinkSecs[1]]));
    while (!this.stopping.signal.aborted) {
      const route = random.weighted(this.opts.routes, (r) => r.weight);
      const stream = random.next() < this.opts.streamShare;
      this.tally.sent++;
      const outcome = await sendAgentRequest(
        this.opts.url,
        { family: route.family, route: route.model, stream, prompt: random.pick(PROMPTS) },
        this.httpAgent,
        this.cutting.signal,
        name,
        this.opts.logins?.get(route.family) ?? null,
      );
      this.count(outcome);
      this.opts.onOutcome?.({ agent: index + 1, route: route.model, stream, outcome });
      await this.think(random.between(this.opts.thinkSecs));
    }
  }

  private count(outcome: AgentOutcome): void {
    switch (outcome.kind) {
      case 'response':
        this.tally.received++;
        if (outcome.completion === 'error_status') this.tally.errorStatuses++;
        else if (outcome.completion !== 'complete') this.tally.incomplete++;
        return;
      case 'transport_error':
        this.tally.transportErrors++;
        return;
      case 'aborted':
        this.tally.aborted++;
        return;
    }
  }

  private async think(scenarioSecs: number): Promise<void> {
    if (this.stopping.signal.aborted) return;
    try {
      await sleep(this.opts.clock.realMs(scenarioSecs), undefined, { signal: this.stopping.signal });
    } catch {
      // stopped while thinking: the loop condition ends the agent
    }
  }
}
