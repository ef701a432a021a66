import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDaemon, type RunningDaemon } from '@routeplane/daemon';
import { formatIssue } from '@routeplane/shared';
import { ScenarioClock } from './clock.js';
import { buildDemoConfig, makeDemoKeys } from './config.js';
import { startSimulatedSeat, type SimulatedSeat } from './providers/server.js';
import type { Scenario } from './scenario/schema.js';
import { splitTarget } from './scenario/load.js';
import { Swarm, type OutcomeRecord, type SwarmRoute } from './agents/swarm.js';

export interface DemoSessionOptions {
  scenario: Scenario;
  scenarioFile: string;
  agents: number;
  speed: number;
  onOutcome?: (record: OutcomeRecord) => void;
}

/**
 * Everything one demo run owns — temp dir, simulated seats, the real daemon,
 * the agent swarm — started in order and torn down in reverse. Nothing here
 * prints: run.ts decides what the person sees.
 */
export class DemoSession {
  private closing: Promise<void> | null = null;

  private constructor(
    readonly tmpDir: string,
    readonly seats: readonly SimulatedSeat[],
    readonly daemon: RunningDaemon,
    readonly swarm: Swarm,
    readonly clock: ScenarioClock,
    /** epoch ms the scenario clock started */
    readonly startedAt: number,
    private readonly removeTmpOnExit: () => void,
  ) {}

  static async start(opts: DemoSessionOptions): Promise<DemoSession> {
    const { scenario } = opts;
    const tmpDir = mkdtempSync(join(tmpdir(), 'routeplane-demo-'));
    // Last resort if something throws past us: never leave the temp dir behind.
    const removeTmpOnExit = () => rmSync(tmpDir, { recursive: true, force: true });
    process.once('exit', removeTmpOnExit);
    const seats: SimulatedSeat[] = [];
    let daemon: RunningDaemon | null = null;
    try {
      const clock = new ScenarioClock(opts.speed);
      const startedAt = Date.now();
      const keys = makeDemoKeys(scenario);
      for (const [i, seat] of scenario.seats.entries()) {
        const key = keys.keyOf.get(seat.id) ?? '';
        seats.push(
          await startSimulatedSeat({ seat, key, clock, pacing: scenario.pacing, repeatEvery: scenario.repeat_every, seed: i + 1 }),
        );
      }
      const paths = { socket: join(tmpDir, 'control.sock'), decisionLog: join(tmpDir, 'decisions.ndjson') };
      const config = buildDemoConfig(scenario, opts.scenarioFile, new Map(seats.map((s) => [s.id, s.baseUrl])), keys, paths, opts.speed);
      if (!config.ok) throw new Error(`the demo's generated config is invalid: ${config.issues.map(formatIssue).join('; ')}`);
      daemon = await startDaemon(config.config, {
        listen: '127.0.0.1:0',
        socketPath: paths.socket,
        decisionLogPath: paths.decisionLog,
        env: keys.env,
      });
      const swarm = new Swarm({
        url: daemon.url,
        routes: swarmRoutes(scenario),
        agents: opts.agents,
        clock,
        streamShare: scenario.agents.stream_share,
        thinkSecs: scenario.agents.think_secs,
        onOutcome: opts.onOutcome,
        logins: keys.loginOf,
      });
      return new DemoSession(tmpDir, seats, daemon, swarm, clock, startedAt, removeTmpOnExit);
    } catch (err) {
      await daemon?.close(1000).catch(() => {});
      await Promise.all(seats.map((s) => s.close()));
      removeTmpOnExit();
      process.removeListener('exit', removeTmpOnExit);
      throw err;
    }
  }

  /** Daemon, then seats, then the temp dir (the swarm is stopped by the caller first). Safe to call twice. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      try {
        await this.daemon.close(2000);
      } finally {
        await Promise.all(this.seats.map((s) => s.close()));
        this.removeTmpOnExit();
        process.removeListener('exit', this.removeTmpOnExit);
      }
    })();
    return this.closing;
  }
}

/** Agents speak the family of a route's first target. */
function swarmRoutes(scenario: Scenario): SwarmRoute[] {
  const providerOf = new Map(scenario.seats.map((s) => [s.id, s.provider]));
  return scenario.routes.map((route) => {
    const [seat] = splitTarget(route.chain[0] ?? '');
    return { model: route.model, family: providerOf.get(seat) ?? 'anthropic', weight: route.weight };
  });
}
