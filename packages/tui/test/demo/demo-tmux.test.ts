import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';

// Acceptance 2 of issue 5: a newcomer runs `routeplane demo` in a 100×30
// terminal. Within 20 s of the monitor appearing it shows a tripped seat with
// a countdown and a probe being claimed; `q` ends the demo and nothing of it
// is left running. Needs tmux and `pnpm build`.

const CLI = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));
const TMUX_SOCKET = `routeplane-demo-test-${process.pid}`;
const SESSION = 'demo';
/** the acceptance window, counted from the first frame of top */
const SHOW_WITHIN_MS = 20_000;
/** node start + module loading on a busy machine, before top draws at all */
const STARTUP_MS = 30_000;
const EXIT_WITHIN_MS = 30_000;

const work = mkdtempSync(join(tmpdir(), 'routeplane-demo-tmux-'));
const pidFile = join(work, 'demo.pid');
let demoPid: number | null = null;

function tmux(...args: string[]): string {
  return execFileSync('tmux', ['-L', TMUX_SOCKET, '-f', '/dev/null', ...args], { encoding: 'utf8' });
}

function screen(): string {
  return tmux('capture-pane', '-p', '-t', SESSION);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  // An exited process not yet reaped by tmux is a zombie: it runs nothing.
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true;
  }
}

function childrenOf(pid: number): number[] {
  try {
    return execFileSync('pgrep', ['-P', String(pid)], { encoding: 'utf8' })
      .split('\n')
      .filter(Boolean)
      .map(Number);
  } catch {
    return []; // pgrep exits 1 when there are none
  }
}

afterAll(() => {
  // Whatever happened, leave nothing behind: the demo, then the private tmux server.
  if (demoPid !== null && alive(demoPid)) process.kill(demoPid, 'SIGKILL');
  try {
    tmux('kill-server');
  } catch {
    // already gone
  }
  rmSync(work, { recursive: true, force: true });
});

describe('routeplane demo in tmux at 100×30', () => {
  it(
    'shows a tripped seat with a countdown and a probe claim within 20 s, and q leaves nothing running',
    async () => {
      if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`pnpm build\` before this test`);
      try {
        execFileSync('tmux', ['-V']);
      } catch {
        throw new Error('tmux is not installed (apt-get install -y tmux)');
      }

      // `exec` keeps the shell's PID, so the file holds the demo's own PID.
      const command = `echo $$ > '${pidFile}'; exec '${process.execPath}' '${CLI}' demo`;
      tmux(
        'new-session',
        '-d',
        '-s',
        SESSION,
        '-x',
        '100',
        '-y',
        '30',
        'sh',
        '-c',
        command,
        ';',
        'set-option',
        '-t',
        SESSION,
        'remain-on-exit',
        'on',
      );

      const started = Date.now();
      while (!existsSync(pidFile) || readFileSync(pidFile, 'utf8').trim() === '') {
        if (Date.now() - started > STARTUP_MS) throw new Error('the demo never started');
        await sleep(100);
      }
      demoPid = Number(readFileSync(pidFile, 'utf8').trim());

      let firstFrameAt: number | null = null;
      let trippedWithCountdown: string | null = null;
      let probeClaim: string | null = null;
      let scene: string | null = null;
      let last = '';
      for (;;) {
        last = screen();
        const now = Date.now();
        if (firstFrameAt === null && /routeplane\s+http:\/\/127\.0\.0\.1:\d+/.test(last) && /SEATS/.test(last)) firstFrameAt = now;
        if (firstFrameAt !== null) {
          // a seat row in the SEATS section: `seat-a  ··▁▃⣿⣶··  ✗ credit  probe in 7s · failed again 3`
          trippedWithCountdown ??=
            last.split('\n').find((l) => /^\s*seat-\S+\s.*✗\s+\S+.*\b(probe in|ends in|resets in)\s+(\d+m)?\d+s/.test(l)) ?? null;
          // a probe in flight (`probing`), or the decision it made (`seat-a probe 400 → …`): a fast refusal is on screen only briefly
          probeClaim ??= last.split('\n').find((l) => /probing| probe (\d{3}|ok)\b/.test(l)) ?? null;
          // the story in words under the header
          scene ??= last.split('\n').find((l) => /^scene \d+\/\d+: \S/.test(l)) ?? null;
          if (trippedWithCountdown && probeClaim && scene) break;
          if (now - firstFrameAt > SHOW_WITHIN_MS) break;
        } else if (now - started > STARTUP_MS) {
          break;
        }
        await sleep(150);
      }
      expect(firstFrameAt, `top never drew its screen; last screen:\n${last}`).not.toBeNull();
      expect(trippedWithCountdown, `no tripped seat with a countdown within 20 s; last screen:\n${last}`).not.toBeNull();
      expect(probeClaim, `no probe claim within 20 s; last screen:\n${last}`).not.toBeNull();
      expect(scene, `no scene line within 20 s; last screen:\n${last}`).not.toBeNull();

      const children = childrenOf(demoPid);
      tmux('send-keys', '-t', SESSION, 'q');
      const quitAt = Date.now();
      while (alive(demoPid) && Date.now() - quitAt < EXIT_WITHIN_MS) await sleep(100);
      expect(alive(demoPid), `demo (pid ${demoPid}) still running ${EXIT_WITHIN_MS} ms after q; screen:\n${screen()}`).toBe(false);
      for (const child of children) expect(alive(child), `child ${child} of the demo still running`).toBe(false);

      // Back on the normal screen: the banner named the temp dir; it is gone, socket and all.
      const after = screen();
      const tmpDir = /temp dir\s+(\S+)/.exec(after)?.[1];
      expect(tmpDir, `the banner names the temp dir; screen after exit:\n${after}`).toMatch(/routeplane-demo-/);
      expect(existsSync(tmpDir!)).toBe(false);
      expect(after).toMatch(/summary: \d+ requests sent, \d+ responses received/);
    },
    STARTUP_MS + SHOW_WITHIN_MS + EXIT_WITHIN_MS + 10_000,
  );
});
