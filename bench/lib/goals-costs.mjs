// Goals 11–14: what other issues ask `pnpm bench` to show — that protocol v2
// and signal classification cost nothing measurable against the previous
// RESULTS.md, that `balance: spread` costs ≤ 5 µs over `ordered`, and that
// usage extraction and metrics cost ≤ 3% of CPU per request. Pure.
import { check, f2, int, medianCell } from './goal-parts.mjs';

/**
 * How far a ratio to the bare proxy may move against the previous run's and
 * still be "the same": the noise of a median of three cells on this shared
 * machine (bench/NOTES.md, "Run to run"). Both runs' ratios are to the bare
 * proxy measured beside the daemon in the same run, so a busier or quieter
 * machine moves both sides.
 */
export const SAME_WITHIN = 0.1;

/** The cells compared with the previous run (family openai; the goal cells, with three rounds each). */
export const COMPARED = [
  { kb: 2, stream: false, c: 16 },
  { kb: 2, stream: false, c: 64 },
  { kb: 2, stream: true, c: 16 },
  { kb: 200, stream: false, c: 16 },
  { kb: 200, stream: true, c: 16 },
  { kb: 2, stream: true, c: 256 },
  { kb: 200, stream: true, c: 256 },
];

const label = (q) => `${q.kb} KB ${q.stream ? 'SSE' : 'JSON'} c=${q.c}`;

/** Each compared cell now and in the previous run: the daemon's medians and its ratios to the bare proxy. */
export function comparePrevious({ cells, previous }) {
  if (!previous) return null;
  const side = (from, q) => {
    const d = medianCell(from, { ...q, through: 'daemon' });
    const b = medianCell(from, { ...q, through: 'bare' });
    if (!d || !b) return null;
    return { daemon: d, bare: b, rps: d.rps / b.rps, cpu: d.cpuUsPerReq / b.cpuUsPerReq, p99: d.p99Ms / b.p99Ms };
  };
  return COMPARED.map((q) => ({ ...q, label: label(q), now: side(cells, q), before: side(previous.cells, q) }));
}

export function costGoals(results) {
  const goals = [];
  const rows = comparePrevious(results);
  const unmeasured = (id, text, why) => goals.push(check(id, text, [{ ok: null, detail: why }]));
  const within = (id, text, key, op, picked) => {
    if (rows === null) return unmeasured(id, text, 'no previous RESULTS.md to compare with');
    const parts = rows
      .filter((r) => picked(r))
      .map((r) => {
        if (!r.now || !r.before) return { ok: null, detail: `${r.label}: not measured in both runs` };
        const moved = r.now[key] / r.before[key] - 1;
        const ok = op === '>=' ? moved >= -SAME_WITHIN : moved <= SAME_WITHIN;
        return {
          ok,
          detail: `${r.label} ${f2(r.now[key])}× (was ${f2(r.before[key])}×, ${moved >= 0 ? '+' : ''}${(moved * 100).toFixed(0)}%)`,
        };
      });
    goals.push(check(id, text, parts));
  };

  // 11. Protocol v2: req/s against the bare proxy no lower than the previous run's (within the noise band).
  within(
    11,
    `Protocol v2: no regression against the previous RESULTS.md — daemon req/s ÷ bare proxy's at most ${SAME_WITHIN * 100}% below the previous run's (medians of three rounds)`,
    'rps',
    '>=',
    (r) => r.c <= 64,
  );
  // 12. Real provider signals: CPU per request against the bare proxy no higher on the success path.
  within(
    12,
    `Real provider signals: classification adds no measurable cost on the success path — daemon CPU µs/request ÷ bare proxy's at most ${SAME_WITHIN * 100}% above the previous run's, 2 KB and 200 KB`,
    'cpu',
    '<=',
    (r) => r.c === 16,
  );

  // 13. Routing policy: spread ≤ 5 µs per request over ordered (bench/micro/policy.bench.ts).
  {
    const text =
      'Routing policy: `balance: spread` costs ≤ 5 µs per request over `ordered` (session key + base order, 3 targets; microbenchmark medians)';
    const ordered = results.micro?.find((m) => m.name.startsWith('ordered: session key'));
    const spread = results.micro?.find((m) => m.name.startsWith('spread: session key'));
    if (!ordered || !spread) unmeasured(13, text, 'not measured');
    else {
      const extra = spread.medianUs - ordered.medianUs;
      goals.push(
        check(13, text, [
          { ok: extra <= 5, detail: `spread ${f2(spread.medianUs)} µs − ordered ${f2(ordered.medianUs)} µs = ${f2(extra)} µs (≤ 5 µs)` },
        ]),
      );
    }
  }

  // 14. Usage extraction and metrics ≤ 3% of CPU per request in the streaming cells (A/B).
  {
    const text =
      'Usage extraction (token usage from bodies, usage windows from headers) and metrics cost ≤ 3% of CPU per request, 2 KB and 200 KB streaming (A/B, medians)';
    const ab = results.usageAb;
    if (!ab?.results?.length) unmeasured(14, text, 'not measured');
    else
      goals.push(
        check(
          14,
          text,
          ab.results.map((r) => {
            const cost = r.a.cpuUsPerReq / r.b.cpuUsPerReq - 1;
            return {
              ok: cost <= 0.03,
              detail: `${r.label}: ${int(r.a.cpuUsPerReq)} vs ${int(r.b.cpuUsPerReq)} µs without = ${cost >= 0 ? '+' : ''}${(cost * 100).toFixed(1)}%`,
            };
          }),
        ),
      );
  }
  return goals;
}
