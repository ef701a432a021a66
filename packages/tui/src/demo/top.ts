import type { StopController } from './stop.js';

/**
 * `top` attached to the demo's daemon, with the story's scene in words under
 * its header. Quitting top stops the demo; the demo
 * stopping for another reason (--duration, SIGTERM) closes top. Loaded lazily
 * so `--no-top` never pulls in Ink and React.
 */
export function attachTop(socketPath: string, stop: StopController, scene: () => string | null): { done: Promise<number> } {
  const done = import('../top/run.js')
    .then(({ runTop }) => runTop({ socketPath, json: false, signal: stop.signal, scene }))
    .finally(() => stop.stop('quit'));
  return { done };
}
