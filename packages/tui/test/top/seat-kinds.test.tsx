import type { Snapshot } from '@routeplane/shared';
import { cleanup } from 'ink-testing-library';
import { afterEach, describe, expect, test } from 'vitest';
import { troubledSnapshot } from './support/fixtures.js';
import { seatsFrame as framed } from './support/seats-frame.js';

/**
 * `top` says what kind each seat is where it matters to a person: `login`
 * for a seat the agents' own login passes through, `no key` for a local
 * server, and `extra usage` while a plan bills past itself — on a healthy
 * seat after its provider, on a tripped one after what tripped it.
 */
const NOW = new Date(2025, 0, 15, 14, 3, 7).getTime();

afterEach(() => cleanup());

/** The troubled fixture with work-max a login, personal-pro a login billing extra usage, openrouter a local server. */
function kinds(snapshot: Snapshot): Snapshot {
  return {
    ...snapshot,
    seats: snapshot.seats.map((s) =>
      s.id === 'work-max'
        ? { ...s, auth: 'passthrough' }
        : s.id === 'personal-pro'
          ? { ...s, auth: 'passthrough', usage: { observed_at: NOW, windows: [], extra_usage: true } }
          : { ...s, auth: 'none' },
    ),
  };
}

const seatsFrame = (snapshot: Snapshot, width: number): string[] => framed(snapshot, width, NOW);

describe('seat kinds on the seat lines', () => {
  test('login, no key and extra usage, after what matters more', () => {
    const rows = seatsFrame(kinds(troubledSnapshot(NOW)), 100);
    const row = (start: string) => rows.find((r) => r.startsWith(` ${start}`)) ?? `(no ${start} row in\n${rows.join('\n')})`;
    expect(row('work-max')).toMatch(/✗ credit +probe in 3m05s · failed again 4 · 1 failed probe · login$/);
    expect(row('personal-pro')).toMatch(/● healthy +anthropic · login · extra usage$/);
    expect(row('openrouter')).toMatch(/✗ rate-limit .* · no key$/);
  });

  test('an API-key seat carries no mark', () => {
    const rows = seatsFrame(troubledSnapshot(NOW), 100);
    expect(rows.join('\n')).not.toMatch(/login|no key|extra usage/);
  });

  test('narrow, the marks give way to the breaker: the countdown is never cut for them', () => {
    const rows = seatsFrame(kinds(troubledSnapshot(NOW)), 60);
    expect(rows.find((r) => r.startsWith(' work-max'))).toMatch(/✗ credit +probe in 3m05s( · failed again 4)?$/);
  });
});
