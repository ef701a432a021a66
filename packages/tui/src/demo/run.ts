import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { isatty } from 'node:tty';
import { colourFor } from '../output/colour.js';
import { DemoFeed } from './feed.js';
import { humanPrinter, jsonPrinter, type DemoPrinter } from './log/printer.js';
import { DEFAULT_SCENARIO_FILE, formatScenarioIssue, loadScenario } from './scenario/load.js';
import { DemoSession } from './session.js';
import { StopController, type StopReason } from './stop.js';
import { type SceneNow, sceneAt, scenesSince, sceneWords } from './scenario/scenes.js';
import { attachTop } from './top.js';

export interface DemoOptions {
  agents: number;
  top: boolean;
  durationSec: number | null;
  speed: number;
  /** a file, or the name of a built-in scenario (`default`); null plays the default */
  scenario: string | null;
  /** NDJSON on stdout instead of human lines (implies no top) */
  json?: boolean;
}

/** How long agents get to finish what they started once the demo stops. */
const STOP_GRACE_MS = 8000;
/** How long to wait for the last decisions to come down the event stream. */
const DECISION_WAIT_MS = 3000;

/**
 * `routeplane demo`: simulated seats, the real daemon over them, a swarm of
 * agents, and `top` (or the decision log) to watch it. Returns the exit code.
 */
export async function runDemo(opts: DemoOptions): Promise<number> {
  const json = opts.json === true;
  const wantsTop = opts.top && !json;
  // top needs a terminal; without one the log is the useful thing to show.
  // isatty(0), not process.stdin.isTTY: touching process.stdin opens a handle
  // that would keep the process alive if top never took it over.
  const useTop = wantsTop && process.stdout.isTTY === true && isatty(0);
  const printer: DemoPrinter = json
    ? jsonPrinter(writeOut, writeErr)
    : humanPrinter(writeOut, writeErr, colourFor(process.stdout), { events: !useTop });
  if (wantsTop && !useTop) printer.note('not a terminal: printing the decision log instead of top');

  const file = scenarioFile(opts.scenario);
  const loaded = await loadScenario(file);
  if (!loaded.ok) {
    for (const issue of loaded.issues) writeErr(formatScenarioIssue(issue) + '\n');
    return 2;
  }
  const scenario = loaded.scenario;

  const stop = new StopController(opts.durationSec);
  const onOutputClosed = () => stop.stop('output_closed');
  const responded = new Set<string>();
  let session: DemoSession;
  try {
    session = await DemoSession.start({
      scenario,
      scenarioFile: file,
      agents: opts.agents,
      speed: opts.speed,
      onOutcome: (record) => {
        if (record.outcome.kind === 'response' && record.outcome.requestId) responded.add(record.outcome.requestId);
        printer.outcome(record);
      },
    });
  } catch (err) {
    stop.dispose();
    writeErr(`routeplane demo: could not start: ${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  }

  let exitCode = 0;
  let feed: DemoFeed | null = null;
  let stopScenes = () => {};
  try {
    feed = await DemoFeed.connect(
      session.daemon.socketPath,
      (event) => printer.event(event),
      (error) => printer.note(`event stream lost: ${error.message}`),
    );
    process.stdout.on('error', onOutputClosed);
    printer.start({
      scenario,
      scenarioFile: file,
      tmpDir: session.tmpDir,
      url: session.daemon.url,
      socketPath: session.daemon.socketPath,
      agents: opts.agents,
      speed: opts.speed,
      time: { startedAt: session.startedAt, speed: opts.speed },
    });
    session.swarm.start();
    const sceneNow = () => sceneAt(scenario, session.clock.seconds());
    stopScenes = followScenes(sceneNow, (last, now) => {
      for (const scene of scenesSince(scenario, last, now)) printer.scene(scene, Date.now());
    });
    const top = useTop
      ? attachTop(session.daemon.socketPath, stop, () => {
          const scene = sceneNow();
          return scene ? sceneWords(scene) : null;
        })
      : null;

    const reason = await stop.reason;
    stopScenes();
    exitCode = (await top?.done) ?? 0;
    stop.whenImpatient(() => session.swarm.cut());
    if (session.swarm.inFlight > 0)
      printer.note(
        `stopping (${describe(reason)}): letting ${session.swarm.inFlight} in-flight requests finish — Ctrl-C again to cut them`,
      );
    await session.swarm.stop(STOP_GRACE_MS);
    const missing = await feed.waitForDecisions(responded, DECISION_WAIT_MS);
    const counters = await feed.counters();
    printer.summary({ reason, agents: session.swarm.tally, events: feed.tally, counters, missingDecisions: missing.length });
  } catch (err) {
    writeErr(`routeplane demo: ${err instanceof Error ? err.message : String(err)}\n`);
    exitCode = 1;
    await session.swarm.stop(0);
  } finally {
    stopScenes();
    // Loading top opens stdin (Ink's `import process` reads every getter); if top
    // failed before Ink took stdin over, that handle alone would keep us running.
    if (useTop) process.stdin.unref();
    feed?.close();
    await session.close();
    stop.dispose();
    process.stdout.removeListener('error', onOutputClosed);
  }
  return exitCode;
}

/** How often the story's scene is looked at, for the log to say when it changes. */
const SCENE_POLL_MS = 200;

/** Calls `onChange` with the last scene named and the one playing now whenever the story moved on; returns how to stop. */
function followScenes(sceneNow: () => SceneNow | null, onChange: (last: SceneNow | null, now: SceneNow) => void): () => void {
  let last: SceneNow | null = null;
  const look = () => {
    const scene = sceneNow();
    if (scene === null || (last !== null && scene.loop === last.loop && scene.index === last.index)) return;
    onChange(last, scene);
    last = scene;
  };
  look();
  const timer = setInterval(look, SCENE_POLL_MS);
  return () => clearInterval(timer);
}

/** null → the default; a bare name → a built-in scenario of that name; else a path. */
export function scenarioFile(value: string | null): string {
  if (value === null) return DEFAULT_SCENARIO_FILE;
  if (/^[a-z0-9][a-z0-9_-]*$/i.test(value)) {
    const builtIn = join(dirname(DEFAULT_SCENARIO_FILE), `${value}.yaml`);
    if (existsSync(builtIn) && !existsSync(value)) return builtIn;
  }
  return resolve(value);
}

function describe(reason: StopReason): string {
  switch (reason) {
    case 'duration':
      return 'duration reached';
    case 'SIGINT':
      return 'Ctrl-C';
    case 'SIGTERM':
      return 'SIGTERM';
    case 'SIGHUP':
      return 'terminal closed';
    case 'quit':
      return 'top closed';
    case 'output_closed':
      return 'output closed';
  }
}

function writeOut(text: string): void {
  process.stdout.write(text);
}

function writeErr(text: string): void {
  process.stderr.write(text);
}
