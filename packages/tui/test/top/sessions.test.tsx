import type { DecisionEvent } from '@routeplane/shared';
import { afterEach, describe, expect, test } from 'vitest';
import { MAX_SESSIONS, SESSION_WINDOW_MS, SessionList } from '../../src/top/store/session-list.js';
import { lineText } from '../../src/top/ui/lines/line.js';
import { sessionLines } from '../../src/top/ui/lines/session-lines.js';
import { textWidth } from '../../src/output/text.js';
import { startApp, type AppHarness } from './support/app-harness.js';
import { attempt, decision } from './support/fixtures.js';

/**
 * `top`'s sessions view: a projection of decision events — one row per
 * session of the last 10 minutes, where its last request was served, how
 * many it made, when it was last seen, whether that last one failed over —
 * and the `S` key that shows it in place of the seats.
 */
const NOW = 1_764_510_000_000;

function request(session: string | null, at: number, over: Partial<DecisionEvent> = {}): DecisionEvent {
  return decision({
    ts: at,
    session,
    client: 'claude-cli/2.1.197',
    attempts: [attempt('max-1', 'claude-sonnet-4-5', 'ok', 200, 300)],
    served_by: 'max-1/claude-sonnet-4-5',
    ...over,
  });
}

const failedOver = (session: string, at: number): DecisionEvent =>
  request(session, at, {
    attempts: [attempt('max-1', 'claude-sonnet-4-5', 'http_429', 429, 20), attempt('max-2', 'claude-sonnet-4-5', 'ok', 200, 300)],
    served_by: 'max-2/claude-sonnet-4-5',
  });

describe('the sessions, projected from decisions', () => {
  test('one row per session, the most recently seen first: where its last request went, how many, whether it failed over', () => {
    const list = new SessionList();
    list.record(request('aaaa11112222', NOW - 50_000, { agent: 'ci' }));
    list.record(
      request('bbbb33334444', NOW - 40_000, {
        client: 'codex_exec/0.169.0',
        route: 'gpt',
        served_by: 'openai/gpt-5',
        attempts: [attempt('openai', 'gpt-5', 'ok', 200, 3)],
      }),
    );
    list.record(failedOver('aaaa11112222', NOW - 12_000));
    list.record(request(null, NOW - 5_000)); // no session key: no session
    list.record(
      request('cccc55556666', NOW - 30_000, {
        served_by: null,
        status: 502,
        attempts: [attempt('max-1', 'claude-sonnet-4-5', 'http_5xx', 503, 9)],
      }),
    );
    expect(list.sessions(NOW)).toEqual([
      {
        session: 'aaaa11112222',
        client: 'claude-cli/2.1.197',
        agent: null,
        route: 'sonnet',
        servedBy: 'max-2/claude-sonnet-4-5',
        requests: 2,
        lastSeen: NOW - 12_000,
        failedOver: true,
      },
      {
        session: 'cccc55556666',
        client: 'claude-cli/2.1.197',
        agent: null,
        route: 'sonnet',
        servedBy: null,
        requests: 1,
        lastSeen: NOW - 30_000,
        failedOver: false,
      },
      {
        session: 'bbbb33334444',
        client: 'codex_exec/0.169.0',
        agent: null,
        route: 'gpt',
        servedBy: 'openai/gpt-5',
        requests: 1,
        lastSeen: NOW - 40_000,
        failedOver: false,
      },
    ]);
  });

  test('an older decision (the daemon’s history, arriving late) counts, but does not move where the session is', () => {
    const list = new SessionList();
    list.record(failedOver('aaaa11112222', NOW - 1_000));
    list.record(request('aaaa11112222', NOW - 60_000));
    expect(list.sessions(NOW)).toMatchObject([
      { requests: 2, servedBy: 'max-2/claude-sonnet-4-5', lastSeen: NOW - 1_000, failedOver: true },
    ]);
  });

  test('only the last 10 minutes, and at most 500 sessions (the least recently seen go)', () => {
    const list = new SessionList();
    list.record(request('old', NOW - SESSION_WINDOW_MS - 1));
    list.record(request('edge', NOW - SESSION_WINDOW_MS));
    expect(list.sessions(NOW).map((s) => s.session)).toEqual(['edge']);
    const many = new SessionList();
    for (let i = 0; i <= MAX_SESSIONS; i++) many.record(request(`s-${String(i).padStart(4, '0')}`, NOW - 100_000 + i));
    const kept = many.sessions(NOW);
    expect(kept).toHaveLength(MAX_SESSIONS);
    expect(kept.at(-1)!.session).toBe('s-0001');
  });
});

describe('its rows', () => {
  test('tag, client, route, the serving seat/model, requests, last seen, ↪ — within 80 columns', () => {
    const list = new SessionList();
    list.record(request('3f9a2c1b7d6e', NOW - 12_000));
    list.record(failedOver('0c41d9e71234', NOW - 125_000));
    const lines = sessionLines(list.sessions(NOW), { width: 80, now: NOW }).map(lineText);
    expect(lines).toEqual([
      ' 3f9a2c1b claude-cli/2.1.197 sonnet max-1/claude-sonnet-4-5 1 req 12s ago',
      ' 0c41d9e7 claude-cli/2.1.197 sonnet max-2/claude-sonnet-4-5 1 req 2m05s ago ↪',
    ]);
    // with room, two spaces apart
    expect(lineText(sessionLines(list.sessions(NOW), { width: 100, now: NOW })[1]!)).toBe(
      ' 0c41d9e7  claude-cli/2.1.197  sonnet  max-2/claude-sonnet-4-5  1 req  2m05s ago  ↪',
    );
  });

  test('when narrow, the client and route give way before the serving target, which is cut in its middle', () => {
    const list = new SessionList();
    list.record(request('3f9a2c1b7d6e', NOW - 12_000, { agent: 'nightly-refactor-bot', route: 'claude-sonnet-long-route' }));
    const [row] = sessionLines(list.sessions(NOW), { width: 60, now: NOW }).map(lineText);
    expect(textWidth(row!)).toBeLessThanOrEqual(60);
    expect(row).toBe(' 3f9a2c1b claud… nig… clau… max-1/cl…onnet-4-5 1 req 12s ago');
  });

  test('says so when there is no session', () => {
    expect(sessionLines([], { width: 80, now: NOW }).map(lineText)).toEqual([' no request with a session key in the last 10 minutes']);
  });
});

describe('S in top', () => {
  let app: AppHarness | null = null;
  afterEach(async () => {
    await app?.close();
    app = null;
  });

  test('shows the sessions in place of the seats, and the seats again', async () => {
    app = await startApp({
      columns: 80,
      rows: 24,
      recent: (now) => [request('3f9a2c1b7d6e', now - 20_000), failedOver('0c41d9e71234', now - 5_000)],
    });
    // the daemon's history is in the log: the sessions are known
    await app.ui.waitFor('max-1 429 → max-2/claude-sonnet-4-5 ok');
    const sessions = await app.ui.pressUntil('S', 'SESSIONS');
    expect(sessions).not.toContain('SEATS');
    const rows = sessions.split('\n');
    const at = rows.findIndex((l) => l.startsWith('─ SESSIONS'));
    expect(rows[at + 1]).toMatch(/^ 0c41d9e7 +claude-cli\/2\.1\.197 +sonnet +max-2\/claude-sonnet-4-5 +1 req +\ds ago +↪ *$/);
    expect(rows[at + 2]).toMatch(/^ 3f9a2c1b +claude-cli\/2\.1\.197 +sonnet +max-1\/claude-sonnet-4-5 +1 req +\d\ds ago *$/);
    const seats = await app.ui.pressUntil('S', 'SEATS');
    expect(seats).not.toContain('SESSIONS');
  });
});
