import type { Counters, DaemonEvent } from '@routeplane/shared';
import type { ChalkInstance } from 'chalk';
import type { OutcomeRecord, SwarmTally } from '../agents/swarm.js';
import type { SceneNow } from '../scenario/scenes.js';
import type { Scenario } from '../scenario/schema.js';
import { breakerLine, decisionLine, sceneLine, summaryLine, type StoryTime } from './format.js';
import type { EventTally } from './tally.js';

export interface DemoStartInfo {
  scenario: Scenario;
  scenarioFile: string;
  tmpDir: string;
  url: string;
  socketPath: string;
  agents: number;
  speed: number;
  time: StoryTime;
}

export interface DemoSummary {
  reason: string;
  agents: SwarmTally;
  events: EventTally;
  /** the daemon's own counters (null when the snapshot could not be had) */
  counters: Counters | null;
  /** responses whose decision never arrived on the event stream */
  missingDecisions: number;
}

/** What `routeplane demo` writes: human lines, or NDJSON with --json. */
export interface DemoPrinter {
  start(info: DemoStartInfo): void;
  event(event: DaemonEvent): void;
  outcome(record: OutcomeRecord): void;
  /** the story moved to another scene (or started again), at epoch ms `ts` */
  scene(scene: SceneNow, ts: number): void;
  /** a remark for the person watching (stderr, so stdout stays parseable) */
  note(text: string): void;
  summary(summary: DemoSummary): void;
}

type Write = (text: string) => void;

export function humanPrinter(write: Write, note: Write, colour: ChalkInstance, opts: { events: boolean }): DemoPrinter {
  let time: StoryTime = { startedAt: Date.now(), speed: 1 };
  return {
    start(info) {
      time = info.time;
      const s = info.scenario;
      const lines = [
        colour.bold(`routeplane demo — ${s.name}${s.description ? `: ${s.description}` : ''}`),
        `  daemon    ${info.url}   control ${info.socketPath}`,
        `  temp dir  ${info.tmpDir}  (removed on exit)`,
        `  agents    ${info.agents} simulated agents, speed ${info.speed}×${info.speed === 1 ? '' : ' (times below are scenario time)'}`,
        ...s.seats.map((seat) => `  ${seat.id.padEnd(8)}  ${seat.provider.padEnd(9)}  ${seat.story ?? seat.models.join(', ')}`),
        ...s.routes.map((r) => `  route     ${r.model}: ${r.chain.join(' → ')}`),
        colour.dim(`  stop with Ctrl-C${opts.events ? '' : ' or q'}`),
        '',
      ];
      write(lines.join('\n') + '\n');
    },
    event(event) {
      if (!opts.events) return;
      if (event.type === 'decision') write(decisionLine(event, time, colour) + '\n');
      else if (event.type === 'breaker') write(breakerLine(event, time, colour) + '\n');
    },
    outcome() {},
    scene(scene, ts) {
      if (opts.events) write(sceneLine(scene, ts, time, colour) + '\n');
    },
    note(text) {
      note(colour.dim(text) + '\n');
    },
    summary(summary) {
      write(summaryLine(summary.agents, summary.events) + '\n');
      if (summary.missingDecisions > 0) note(`${summary.missingDecisions} responses had no decision on the event stream\n`);
    },
  };
}

/** One JSON object a line: the daemon's events as they are, plus the demo's own records. */
export function jsonPrinter(write: Write, note: Write): DemoPrinter {
  const line = (value: unknown) => write(JSON.stringify(value) + '\n');
  return {
    start(info) {
      line({
        type: 'demo_start',
        scenario: info.scenario.name,
        scenario_file: info.scenarioFile,
        tmp_dir: info.tmpDir,
        http_url: info.url,
        socket: info.socketPath,
        agents: info.agents,
        speed: info.speed,
        started_at: info.time.startedAt,
      });
    },
    event(event) {
      line(event);
    },
    outcome({ agent, route, stream, outcome }) {
      const common = { type: 'agent_outcome', agent, route, stream, kind: outcome.kind, ms: outcome.ms };
      if (outcome.kind === 'response') {
        line({
          ...common,
          status: outcome.status,
          completion: outcome.completion,
          request_id: outcome.requestId,
          served_by: outcome.servedBy,
          attempts: outcome.attempts,
        });
      } else {
        line(common);
      }
    },
    scene(scene, ts) {
      line({ type: 'demo_scene', ts, loop: scene.loop, index: scene.index, total: scene.total, say: scene.say });
    },
    note(text) {
      note(text + '\n');
    },
    summary(s) {
      line({
        type: 'demo_summary',
        reason: s.reason,
        requests_sent: s.agents.sent,
        responses_received: s.agents.received,
        transport_errors: s.agents.transportErrors,
        aborted: s.agents.aborted,
        error_statuses: s.agents.errorStatuses,
        incomplete: s.agents.incomplete,
        decisions: s.events.decisions,
        failovers: s.events.failovers,
        fail_open: s.events.failOpen,
        trips: s.events.trips,
        probes_claimed: s.events.probesClaimed,
        probes_failed: s.events.probesFailed,
        cleared: s.events.cleared,
        missing_decisions: s.missingDecisions,
        daemon_counters: s.counters,
      });
    },
  };
}
