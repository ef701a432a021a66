import { execFileSync } from 'node:child_process';

/**
 * A private tmux server (its own socket file, in the test's temporary
 * directory, and no user config) running one session, for driving the real
 * CLI as a person would: keys in, screen text out.
 */
export class TmuxSession {
  readonly name = 'top';

  constructor(
    readonly socketPath: string,
    readonly columns: number,
    readonly rows: number,
  ) {}

  /** `-u`: UTF-8 whatever the locale says, or the glyphs would come back as `_`. */
  private tmux(...args: string[]): string {
    return execFileSync('tmux', ['-u', '-S', this.socketPath, '-f', '/dev/null', ...args], { encoding: 'utf8' });
  }

  /** Starts a bare shell with a recognisable prompt. */
  start(env: Record<string, string>): void {
    const assignments = Object.entries(env).map(([k, v]) => `${k}=${v}`);
    // Ink renders nothing live when it believes it runs in CI: the monitor must see a plain terminal.
    this.tmux(
      'new-session',
      '-d',
      '-s',
      this.name,
      '-x',
      String(this.columns),
      '-y',
      String(this.rows),
      'env',
      '-u',
      'CI',
      '-u',
      'CONTINUOUS_INTEGRATION',
      ...assignments,
      'PS1=e2e$ ',
      'bash',
      '--norc',
      '--noprofile',
    );
  }

  /** Types text, then Enter when asked. */
  type(text: string, enter = false): void {
    this.tmux('send-keys', '-t', this.name, '-l', text);
    if (enter) this.tmux('send-keys', '-t', this.name, 'Enter');
  }

  /** Sends one named key (`Enter`, `Escape`, `Down`) or character. */
  key(key: string): void {
    this.tmux('send-keys', '-t', this.name, key);
  }

  capture(): string {
    return this.tmux('capture-pane', '-p', '-t', this.name);
  }

  /**
   * Polls the screen until `expect` holds on two captures in a row that are
   * the same, up to `timeoutMs`. A frame larger than the terminal's read
   * buffer reaches tmux in pieces, so one capture can show the top of a new
   * frame over lines not yet drawn; a screen that held still is whole, and
   * what the caller reads next in it is there.
   */
  async waitFor(expect: string | RegExp | ((screen: string) => boolean), timeoutMs = 10_000): Promise<string> {
    const test = typeof expect === 'function' ? expect : (s: string) => (typeof expect === 'string' ? s.includes(expect) : expect.test(s));
    const deadline = Date.now() + timeoutMs;
    let matched: string | null = null;
    for (;;) {
      const screen = this.capture();
      if (test(screen)) {
        if (screen === matched) return screen;
        matched = screen;
      } else matched = null;
      if (Date.now() > deadline) throw new Error(`screen never showed ${String(expect)} (twice the same); it shows:\n${screen}`);
      await new Promise((ok) => setTimeout(ok, matched === null ? 50 : 20));
    }
  }

  kill(): void {
    try {
      this.tmux('kill-server');
    } catch {
      // already gone
    }
  }
}
