// A/B comparisons that stay fair on a busy machine: two daemons side by side,
// the same cell on each in alternating order (A B B A B A A B: neither side
// always runs first or last), each side's figure the median of its rounds.
// Used for the small effects a single cell cannot resolve: what the usage
// tap and metrics cost, spread against ordered, a candidate build.

/** A B B A, then B A A B: balanced over position and over time. */
export const AB_ORDER = ['a', 'b', 'b', 'a', 'b', 'a', 'a', 'b'];

const median = (xs) => {
  const v = xs.filter((x) => typeof x === 'number' && !Number.isNaN(x)).sort((p, q) => p - q);
  if (v.length === 0) return null;
  return v.length % 2 ? v[v.length >> 1] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
};

/**
 * Cell names on the command line: `2k-json-16`, `200k-sse-256`,
 * `claude-code-16`, `codex-64` (an agent's cell: its own body, streamed).
 */
export function parseCellName(name, agents) {
  const m = /^(?:(\d+)k-(json|sse)|([a-z-]+))-(\d+)$/.exec(name);
  if (m === null) throw new Error(`bench: cannot read cell ${JSON.stringify(name)} (e.g. 2k-json-16, 200k-sse-16, claude-code-16)`);
  const c = Number(m[4]);
  if (m[3] !== undefined) {
    const agent = agents[m[3]];
    if (agent === undefined) throw new Error(`bench: no agent ${JSON.stringify(m[3])} (${Object.keys(agents).join(', ')})`);
    return { name, family: m[3], stream: true, kb: agent.kb, c };
  }
  return { name, family: 'openai', stream: m[2] === 'sse', kb: Number(m[1]), c };
}

export function cellLabel({ family, stream, kb, c }) {
  return `${family === 'openai' ? '' : `${family} `}${kb} KB ${stream ? 'SSE' : 'JSON'} c=${c}`;
}

/**
 * Runs each cell on both targets in `order`; returns per cell both sides'
 * medians (req/s, CPU µs/request, p50, p99, peak RSS) and every round.
 * `run(target, cell)` measures one cell once.
 */
export async function abRounds({ a, b, cells, order = AB_ORDER, run, log }) {
  const out = [];
  for (const cell of cells) {
    const rounds = { a: [], b: [] };
    // a whole unrecorded round on each first: pools, JIT and heap settle outside the figures (with
    // a short warm-up the first recorded round, always A's, came out dearer than the rest)
    await run(a, cell);
    await run(b, cell);
    for (const side of order) {
      const r = await run(side === 'a' ? a : b, cell);
      rounds[side].push(r);
      log?.(`  ${cellLabel(cell)} ${side.toUpperCase()}: ${Math.round(r.rps)} req/s, ${Math.round(r.cpuUsPerReq)} µs/req`);
    }
    const sideOf = (xs) => ({
      rps: median(xs.map((x) => x.rps)),
      cpuUsPerReq: median(xs.map((x) => x.cpuUsPerReq)),
      p50Ms: median(xs.map((x) => x.p50Ms)),
      p99Ms: median(xs.map((x) => x.p99Ms)),
      peakRssMB: median(xs.map((x) => x.peakRssMB)),
      roundsCpu: xs.map((x) => x.cpuUsPerReq),
      roundsRps: xs.map((x) => x.rps),
    });
    out.push({ ...cell, label: cellLabel(cell), a: sideOf(rounds.a), b: sideOf(rounds.b) });
  }
  return out;
}

const int = (x) => (x === null || x === undefined ? '–' : Math.round(x).toLocaleString('en-US'));
const f1 = (x) => (x === null || x === undefined ? '–' : x.toFixed(1));
const pct = (x) => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)}%`;

/** One row per cell: both sides' medians, B against A, and each side's rounds. */
export function renderAb(results, names) {
  const rows = [
    `| cell | ${names.a} req/s | ${names.b} req/s | ${names.a} CPU µs/req | ${names.b} CPU µs/req | CPU ${names.b} vs ${names.a} | CPU A ÷ B | p99 ms (A / B) | peak RSS MB (A / B) | CPU µs/req by round (A; B) |`,
    '|---|--:|--:|--:|--:|--:|--:|--:|--:|---|',
  ];
  for (const r of results) {
    rows.push(
      `| ${r.label} | ${int(r.a.rps)} | ${int(r.b.rps)} | ${int(r.a.cpuUsPerReq)} | ${int(r.b.cpuUsPerReq)} | ${pct(r.b.cpuUsPerReq / r.a.cpuUsPerReq - 1)} | ${(r.a.cpuUsPerReq / r.b.cpuUsPerReq).toFixed(2)}× | ${f1(r.a.p99Ms)} / ${f1(r.b.p99Ms)} | ${f1(r.a.peakRssMB)} / ${f1(r.b.peakRssMB)} | ${r.a.roundsCpu.map(int).join(', ')}; ${r.b.roundsCpu.map(int).join(', ')} |`,
    );
  }
  return rows.join('\n');
}
