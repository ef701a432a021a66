import { render } from 'ink';
import type { ConnectionManager } from './source/connection-manager.js';
import type { MonitorStore } from './store/monitor-store.js';
import { App } from './ui/components/App.js';
import type { Theme } from './ui/theme.js';

/**
 * The interactive monitor on a real terminal: the alternate screen (so `q`
 * gives the shell back exactly as it was), Ink at ≤ 20 frames a second, and
 * a clean exit on `q`, Ctrl+C, SIGTERM or SIGHUP.
 */
const ENTER_ALT_SCREEN = '\x1b[?1049h\x1b[H\x1b[2J';
const LEAVE_ALT_SCREEN = '\x1b[?1049l';

export async function runInteractive(options: {
  store: MonitorStore;
  manager: ConnectionManager;
  theme: Theme;
  signal?: AbortSignal | undefined;
  scene?: ((now: number) => string | null) | undefined;
}): Promise<number> {
  const { store, manager, theme, signal, scene } = options;
  const stdout = process.stdout;
  let restored = false;
  const restore = () => {
    if (restored) return;
    restored = true;
    stdout.write(LEAVE_ALT_SCREEN);
  };
  // Also on a crash: never leave the person's terminal on the alternate screen.
  process.once('exit', restore);
  stdout.write(ENTER_ALT_SCREEN);
  store.start();
  const instance = render(<App store={store} actions={manager} theme={theme} scene={scene} />, { maxFps: 20, exitOnCtrlC: true });
  const quit = () => instance.unmount();
  process.once('SIGTERM', quit);
  process.once('SIGHUP', quit);
  if (signal?.aborted) quit();
  signal?.addEventListener('abort', quit, { once: true });
  try {
    await instance.waitUntilExit();
    return 0;
  } finally {
    process.off('SIGTERM', quit);
    process.off('SIGHUP', quit);
    signal?.removeEventListener('abort', quit);
    manager.stop();
    store.stop();
    instance.cleanup();
    restore();
    process.off('exit', restore);
  }
}
