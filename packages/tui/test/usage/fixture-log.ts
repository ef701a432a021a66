import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Attempt, DecisionEvent, Usage } from '@routeplane/shared';

/**
 * A decision log as the daemon leaves it after two rotations — `.2`
 * (oldest), `.1`, the live file — with lines that are not decisions: a torn
 * line, a foreign JSON object, text. Times are UTC on 2026-11-30 (tests read
 * days in UTC).
 */
export const T0 = Date.UTC(2026, 10, 30, 10, 0, 0);
const MIN = 60_000;

const ok = (seat: string, model: string): Attempt => ({
  seat,
  model,
  outcome: 'ok',
  status: 200,
  ms: 5,
  evidence: 'ok',
  signal: null,
  retry: 0,
});
const failed = (seat: string, model: string, status = 429): Attempt => ({
  seat,
  model,
  outcome: status === 429 ? 'http_429' : 'http_5xx',
  status,
  ms: 5,
  evidence: status === 429 ? 'quota' : 'model_error',
  signal: null,
  retry: 0,
});
const usage = (input: number, output: number, cacheRead = 0, cacheWrite = 0): Usage => ({
  input_tokens: input,
  output_tokens: output,
  cache_read_tokens: cacheRead,
  cache_write_tokens: cacheWrite,
});

let n = 0;
function decision(at: number, over: Partial<DecisionEvent>): DecisionEvent {
  n += 1;
  return {
    type: 'decision',
    seq: n,
    ts: at,
    request_id: `req-${n}`,
    route: 'sonnet',
    family: 'anthropic',
    stream: false,
    chain: [],
    attempts: [],
    served_by: null,
    status: 200,
    duration_ms: 10,
    fail_open: false,
    requested: 'sonnet',
    agent: null,
    lane: 'foreground',
    session: null,
    balance: 'ordered',
    skipped: false,
    usage: null,
    cost: null,
    client: 'claude-cli/2.1.197',
    ...over,
  };
}

/** Oldest file: two requests of session aaaa on max-1 (priced), one of them a retry after a 5xx on the same target. */
export const ROTATED_2: DecisionEvent[] = [
  decision(T0, {
    session: 'aaaa11112222',
    agent: 'ci',
    attempts: [ok('max-1', 'sonnet-5')],
    served_by: 'max-1/sonnet-5',
    usage: usage(1_000, 200, 5_000, 300),
    cost: 0.008625,
  }),
  decision(T0 + MIN, {
    session: 'aaaa11112222',
    agent: 'ci',
    attempts: [{ ...failed('max-1', 'sonnet-5', 500) }, { ...ok('max-1', 'sonnet-5'), retry: 1 }],
    served_by: 'max-1/sonnet-5',
    usage: usage(2_000, 100),
    cost: 0.0075,
  }),
];

/** Then: max-1 spends its window; session bbbb fails over to max-2 (unpriced), a request of no route, one that failed everywhere. */
export const ROTATED_1: DecisionEvent[] = [
  decision(T0 + 2 * MIN, {
    session: 'bbbb33334444',
    attempts: [failed('max-1', 'sonnet-5'), ok('max-2', 'sonnet-5')],
    served_by: 'max-2/sonnet-5',
    usage: usage(500, 50),
  }),
  decision(T0 + 3 * MIN, { route: 'nope', status: 404, requested: 'nope', session: null }),
  decision(T0 + 4 * MIN, {
    session: 'cccc55556666',
    attempts: [failed('max-1', 'sonnet-5'), failed('max-2', 'sonnet-5', 503)],
    served_by: null,
    status: 502,
  }),
];

/** The live file: the next day, session aaaa again on max-2, and one on gpt (priced) with an agent. */
export const LIVE: DecisionEvent[] = [
  decision(T0 + 24 * 60 * MIN, {
    session: 'aaaa11112222',
    agent: 'ci',
    attempts: [ok('max-2', 'sonnet-5')],
    served_by: 'max-2/sonnet-5',
    usage: usage(100, 10),
  }),
  decision(T0 + 24 * 60 * MIN + MIN, {
    route: 'gpt',
    family: 'openai',
    session: 'dddd77778888',
    agent: 'bot',
    attempts: [ok('openai', 'gpt-5')],
    served_by: 'openai/gpt-5',
    usage: usage(40_000, 8_000, 30_000),
    cost: 0.09625,
  }),
];

export interface FixtureLog {
  readonly dir: string;
  /** the live file; `.1` and `.2` beside it */
  readonly path: string;
  remove(): void;
}

const line = (d: DecisionEvent) => JSON.stringify(d);

export function writeFixtureLog(): FixtureLog {
  const dir = mkdtempSync(join(tmpdir(), 'rp-usage-'));
  const path = join(dir, 'decisions.ndjson');
  writeFileSync(`${path}.2`, [line(ROTATED_2[0]!), 'not json at all', line(ROTATED_2[1]!), ''].join('\n'));
  // a decision cut short by a crash, an object that is not a decision, then a line with no newline (a rotated file is whole: it counts)
  writeFileSync(
    `${path}.1`,
    [line(ROTATED_1[0]!), '{"type":"decision","ts":', line(ROTATED_1[1]!), '{"type":"breaker","ts":1}', line(ROTATED_1[2]!), '{"torn'].join(
      '\n',
    ),
  );
  // the live file's last line is being written: it is not counted
  writeFileSync(path, [line(LIVE[0]!), line(LIVE[1]!), '{"type":"decision","request_id":"half'].join('\n'));
  return { dir, path, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
