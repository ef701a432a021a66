// NDJSON codec cost per event line: encode (JSON + newline) and decode
// (LineSplitter over socket-sized chunks that cut lines anywhere, then JSON.parse).
import { bench, describe } from 'vitest';
import { encodeLine, LineSplitter, MAX_LINE_CHARS, type DecisionEvent } from '../../packages/shared/src/index.js';

const event: DecisionEvent = {
  type: 'decision',
  seq: 123456,
  ts: 1_760_000_000_000,
  request_id: 'rp-k3j9x2',
  route: 'sonnet',
  family: 'anthropic',
  stream: true,
  chain: [
    { seat: 'work-max', model: 'claude-sonnet-5', state: 'tripped', reason: 'credit' },
    { seat: 'personal', model: 'claude-sonnet-5', state: 'healthy', reason: null },
  ],
  attempts: [{ seat: 'personal', model: 'claude-sonnet-5', outcome: 'ok', status: 200, ms: 340 }],
  served_by: 'personal/claude-sonnet-5',
  status: 200,
  duration_ms: 353,
  fail_open: false,
};

// 64 lines, delivered in 4 KiB chunks that split lines (and would split characters) anywhere.
const LINES = 64;
const stream = Buffer.from(Array.from({ length: LINES }, () => encodeLine({ event })).join(''));
const chunks: Buffer[] = [];
for (let at = 0; at < stream.length; at += 4096) chunks.push(stream.subarray(at, at + 4096));

describe('ndjson', () => {
  bench('encodeLine(decision event)', () => {
    encodeLine({ event });
  });

  bench(`decode ${LINES} lines (split + JSON.parse), per batch`, () => {
    const splitter = new LineSplitter(MAX_LINE_CHARS);
    let parsed = 0;
    for (const chunk of chunks) {
      for (const r of splitter.push(chunk)) if (r.kind === 'line') parsed += JSON.parse(r.line) ? 1 : 0;
    }
    if (parsed !== LINES) throw new Error(`decoded ${parsed} lines, expected ${LINES}`);
  });
});
