import type { Scenario } from './schema.js';

/**
 * Which scene of the story is playing at scenario second `t`, and in which
 * replay — so `top` (in its header) and the log can say what to watch
 * (`scene 2/8: seat-b is rate-limited — watch "ends in"`) and that the story
 * started again. Pure.
 */
export interface SceneNow {
  /** 1-based */
  readonly index: number;
  readonly total: number;
  /** 1 for the first play, 2 for the first replay, … */
  readonly loop: number;
  readonly say: string;
  /** scenario seconds since the story (re)started */
  readonly sinceLoopStart: number;
}

/** How long after a replay starts its scene line says so. */
const REPLAY_NOTICE_SECS = 6;

export function sceneAt(scenario: Pick<Scenario, 'scenes' | 'repeat_every'>, t: number): SceneNow | null {
  const { scenes, repeat_every: every } = scenario;
  if (scenes.length === 0) return null;
  const loop = every === null ? 1 : Math.floor(t / every) + 1;
  const local = every === null ? t : t % every;
  let index = -1;
  for (let i = 0; i < scenes.length; i += 1) if (scenes[i]!.at <= local) index = i;
  // before the first scene of a replay, the last one of the previous play still runs
  if (index === -1) {
    if (loop === 1) return { index: 0, total: scenes.length, loop, say: 'starting…', sinceLoopStart: local };
    index = scenes.length - 1;
  }
  return { index: index + 1, total: scenes.length, loop, say: scenes[index]!.say, sinceLoopStart: local };
}

/**
 * Every scene that began after `last` up to and including `now`, in order:
 * a log that looks now and then (or late, on a busy machine) still names
 * each scene once. A first look names every scene of the current play up to
 * `now`: on a busy machine the story may be past its first scene by the time
 * the log starts looking.
 */
export function scenesSince(
  scenario: Pick<Scenario, 'scenes' | 'repeat_every'>,
  last: Pick<SceneNow, 'loop' | 'index'> | null,
  now: SceneNow,
): SceneNow[] {
  if (now.index === 0) return [now];
  const { scenes } = scenario;
  const out: SceneNow[] = [];
  let loop = last?.loop ?? now.loop;
  let index = last?.index ?? 0;
  // step scene by scene from the last one named to the one playing now
  while (loop < now.loop || (loop === now.loop && index < now.index)) {
    index += 1;
    if (index > scenes.length) {
      loop += 1;
      index = 1;
    }
    const at = loop === now.loop && index === now.index ? now.sinceLoopStart : scenes[index - 1]!.at;
    out.push({ index, total: scenes.length, loop, say: scenes[index - 1]!.say, sinceLoopStart: at });
  }
  return out;
}

/** `scene 2/8: …`; in a replay `loop 2 · scene 2/8: …`, and just after it started `the story starts again (loop 2) · …`. */
export function sceneWords(scene: SceneNow): string {
  const head = scene.index === 0 ? 'scene –' : `scene ${scene.index}/${scene.total}`;
  if (scene.loop === 1) return `${head}: ${scene.say}`;
  const loop = scene.sinceLoopStart < REPLAY_NOTICE_SECS ? `the story starts again (loop ${scene.loop})` : `loop ${scene.loop}`;
  return `${loop} · ${head}: ${scene.say}`;
}

/**
 * The scenario seconds, within one play, at which the screen changes for a
 * reason the story gives: a phase starts or ends, a scene starts, the story
 * replays. The longest gap between two of them is the longest a watcher may
 * wait for something to happen: at most 10 s, so the screen is never idle longer.
 */
export function longestQuiet(scenario: Scenario): number {
  const every = scenario.repeat_every;
  const moments = new Set<number>([0]);
  for (const seat of scenario.seats) {
    for (const phase of seat.timeline) {
      if (phase.phase === 'ok') continue;
      moments.add(phase.from);
      if (phase.to !== undefined) moments.add(phase.to);
    }
  }
  for (const scene of scenario.scenes) moments.add(scene.at);
  const sorted = [...moments].filter((m) => every === null || m < every).sort((a, b) => a - b);
  const end = every ?? sorted.at(-1)!;
  let longest = 0;
  for (let i = 0; i < sorted.length; i += 1) longest = Math.max(longest, (sorted[i + 1] ?? end) - sorted[i]!);
  return longest;
}
