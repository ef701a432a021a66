import { afterEach, describe, expect, test } from 'vitest';
import { startApp, type AppHarness } from './support/app-harness.js';
import { ANTHROPIC, breaker, providerSubject, seatSubject } from './support/fixtures.js';

/**
 * `r` and `P` on a row name the breakers the daemon's own rule names
 * (`namedByCommand` in packages/shared): a seat's provider breakers too, and
 * a row where nothing can be probed says so instead of asking.
 */
let app: AppHarness | null = null;
afterEach(async () => {
  await app?.close();
  app = null;
});

const selectedLine = (frame: string) => frame.split('\n').find((l) => l.startsWith('›')) ?? '';

/** Moves the selection down, then up, one row at a time, until the selected row matches. */
async function selectRow(h: AppHarness, pattern: RegExp): Promise<void> {
  for (const key of ['j', 'k']) {
    for (let i = 0; i < 20; i += 1) {
      const before = selectedLine(h.ui.frame());
      if (pattern.test(before)) return;
      h.ui.press(key);
      const moved = await h.ui.waitFor((f) => selectedLine(f) !== before, 300).catch(() => null);
      if (moved === null) break;
    }
  }
  throw new Error(`no row matching ${pattern}:\n${h.ui.frame()}`);
}

/** claude-opus-4-1 failing on the whole Anthropic upstream: work-max and personal-pro serve it there, and have no breaker of their own. */
const providerOnly = (now: number) => [
  breaker('errors', providerSubject(ANTHROPIC, 'claude-opus-4-1'), { since: now - 5000, until: now + 55_000 }),
];

describe('a seat whose only trouble is a provider breaker', () => {
  test('r opens the confirm, and y clears the provider breaker (errors)', async () => {
    app = await startApp({ breakers: providerOnly });
    await selectRow(app, /^›personal-pro /);
    const question = await app.ui.pressUntil('r', 'Reset seat personal-pro');
    expect(question).not.toContain('nothing to reset');
    await app.ui.pressUntil('y', '✓ reset personal-pro: cleared 1 (errors)');
    expect(app.daemon.requestsOf('reset')).toEqual([{ cmd: 'reset', args: { seat: 'personal-pro' } }]);
    await app.ui.waitFor((f) => !f.includes('✗'));
  });

  test('P opens the probe confirm naming errors', async () => {
    app = await startApp({ breakers: providerOnly });
    await selectRow(app, /^›work-max /);
    await app.ui.pressUntil('P', 'Make seat work-max probe-ready now (errors)?');
    await app.ui.pressUntil('y', '✓ probe work-max: 1 made probe-ready (errors)');
    expect(app.daemon.requestsOf('probe')).toEqual([{ cmd: 'probe', args: { seat: 'work-max' } }]);
  });
});

describe('P where there is nothing to probe', () => {
  test('a rate-limited seat, and a healthy seat: the message line says why, no confirm, nothing sent', async () => {
    const now = Date.now();
    app = await startApp({
      breakers: () => [breaker('rate_limit', seatSubject('openrouter'), { since: now - 1000, until: now + 600_000, cooldown_ms: 601_000 })],
    });
    await selectRow(app, /^›openrouter /);
    await app.ui.pressUntil('P', 'nothing to probe on openrouter: a rate limit needs no probe, it ends by itself');
    expect(app.ui.frame()).not.toContain('CONFIRM');
    await selectRow(app, /^›personal-pro /);
    await app.ui.pressUntil('P', 'nothing to probe on personal-pro: no breaker is open');
    expect(app.ui.frame()).not.toContain('CONFIRM');
    expect(app.daemon.requestsOf('probe')).toHaveLength(0);
  });
});
