// Markdown for stdout and bench/RESULTS.md. Pure: results in, text out.
import { renderAb } from './ab.mjs';
import { comparePrevious, SAME_WITHIN } from './goals-costs.mjs';

const int = (x) => (x === null || x === undefined || Number.isNaN(x) ? '–' : Math.round(x).toLocaleString('en-US'));
const f2 = (x) => (x === null || x === undefined || Number.isNaN(x) ? '–' : x.toFixed(2));
const f1 = (x) => (x === null || x === undefined || Number.isNaN(x) ? '–' : x.toFixed(1));
const mark = (ok) => (ok === true ? '✓' : ok === false ? '✗' : '–');

const THROUGH = {
  direct: 'direct (mock)',
  bare: 'bare node:http proxy',
  'undici-request': 'bare proxy over undici.request',
  'undici-dispatch': 'bare proxy over undici.dispatch',
  'http-buffered': 'bare node:http proxy holding the body',
  daemon: 'routeplane daemon',
};

export function renderMatrix(cells) {
  const rows = [
    '| family | body | mode | c | through | req/s | × bare | p50 ms | p99 ms | added p50 / p99 ms vs direct | CPU µs/req | peak RSS MB |',
    '|---|--:|---|--:|---|--:|--:|--:|--:|--:|--:|--:|',
  ];
  for (const cell of cells) {
    const peer = (through) =>
      cells.find(
        (x) => x.family === cell.family && x.stream === cell.stream && x.kb === cell.kb && x.c === cell.c && x.through === through,
      );
    const bare = peer('bare');
    const direct = peer('direct');
    const ratio = cell.through === 'direct' || !bare ? '–' : `${f2(cell.rps / bare.rps)}×`;
    const added = cell.through === 'direct' || !direct ? '–' : `${f2(cell.p50Ms - direct.p50Ms)} / ${f2(cell.p99Ms - direct.p99Ms)}`;
    const errors = cell.errors ? ` ⚠ ${cell.errors} errors ${JSON.stringify(cell.errorDetail)}` : '';
    rows.push(
      `| ${cell.family} | ${cell.kb} KB | ${cell.stream ? 'SSE' : 'JSON'} | ${cell.c} | ${THROUGH[cell.through] ?? cell.through}${errors} | ${int(cell.rps)} | ${ratio} | ${f2(cell.p50Ms)} | ${f2(cell.p99Ms)} | ${added} | ${int(cell.cpuUsPerReq)} | ${f1(cell.peakRssMB)} |`,
    );
  }
  return rows.join('\n');
}

/** The goal cells round by round (round 1 is the matrix's own cell): every cell that ran more than once. */
export function renderGoalRounds(cells) {
  const byCell = new Map();
  for (const cell of cells) {
    const key = `${cell.family}/${cell.kb}/${cell.stream}/${cell.c}/${cell.through}`;
    if (!byCell.has(key)) byCell.set(key, []);
    byCell.get(key).push(cell);
  }
  const repeated = [...byCell.values()].filter((rounds) => rounds.length > 1);
  if (repeated.length === 0) return null;
  const rows = [
    '| family | body | mode | c | through | req/s by round | CPU µs/req by round | p50 ms by round | p99 ms by round |',
    '|---|--:|---|--:|---|---|---|---|---|',
  ];
  for (const rounds of repeated) {
    rounds.sort((a, b) => (a.round ?? 0) - (b.round ?? 0));
    const [cell] = rounds;
    const list = (key, fmt) => rounds.map((x) => fmt(x[key])).join(', ');
    rows.push(
      `| ${cell.family} | ${cell.kb} KB | ${cell.stream ? 'SSE' : 'JSON'} | ${cell.c} | ${THROUGH[cell.through] ?? cell.through} | ${list('rps', int)} | ${list('cpuUsPerReq', int)} | ${list('p50Ms', f2)} | ${list('p99Ms', f1)} |`,
    );
  }
  return rows.join('\n');
}

export function renderGoals(goals) {
  return goals.map((g) => `- ${mark(g.ok)} **${g.id}.** ${g.text} — ${g.detail}`).join('\n');
}

function renderFirstChunk(fc, opts) {
  if (!fc) return '_not measured in this run_';
  const rows = [
    `One connection, one streamed request at a time (${opts.firstChunk.iterations} per target, taken in turn), ${opts.firstChunk.chunks} SSE chunks ${opts.firstChunk.gapMs} ms apart, 2 KB body.`,
    '',
    '| through | headers p50 ms | first chunk p50 ms | first chunk p90 ms | added first chunk p50 ms | whole stream p50 ms |',
    '|---|--:|--:|--:|--:|--:|',
  ];
  for (const [name, r] of Object.entries(fc)) {
    const added = name === 'direct' ? '–' : f2(r.firstChunkP50 - fc.direct.firstChunkP50);
    rows.push(`| ${THROUGH[name]} | ${f2(r.headersP50)} | ${f2(r.firstChunkP50)} | ${f2(r.firstChunkP90)} | ${added} | ${f2(r.endP50)} |`);
  }
  return rows.join('\n');
}

/** Each round's req/s, in the order they ran (older results have none). */
function roundsOf(side) {
  return side.roundsRps ? side.roundsRps.map(int).join(', ') : '–';
}

function renderEventPath(ep) {
  if (!ep) return '_not measured in this run_';
  return [
    `Daemon, OpenAI JSON 2 KB at c=${ep.c}, ${ep.rounds} rounds of ${ep.seconds} s (${ep.order ? `subscribers ${ep.order.join(', ')}` : 'alternating 0 and 4 subscribers'}); each figure is the median of its side's rounds.`,
    '',
    '| subscribers | req/s | CPU µs/req | events/s per subscriber | events/s pushed (all) | overflowed | req/s of each round |',
    '|--:|--:|--:|--:|--:|---|---|',
    `| 0 | ${int(ep.without.rps)} | ${int(ep.without.cpuUsPerReq)} | – | – | – | ${roundsOf(ep.without)} |`,
    `| 4 | ${int(ep.with4.rps)} | ${int(ep.with4.cpuUsPerReq)} | ${int(ep.with4.eventsPerSecPerSubscriber)} | ${int(ep.with4.eventsPerSecTotal)} | ${ep.with4.overflowed ? 'yes ⚠' : 'no'} | ${roundsOf(ep.with4)} |`,
  ].join('\n');
}

function renderMicro(micro) {
  if (!micro) return '_not measured in this run_';
  return [
    '| benchmark | median µs | mean µs | p99 µs | samples |',
    '|---|--:|--:|--:|--:|',
    ...micro.map((m) => `| ${m.group} › ${m.name} | ${f2(m.medianUs)} | ${f2(m.meanUs)} | ${f2(m.p99Us)} | ${int(m.samples)} |`),
  ].join('\n');
}

function renderPrevious(results) {
  const rows = comparePrevious(results);
  if (rows === null) return '_no previous RESULTS.md to compare with_';
  const p = results.previous;
  const ratio = (x) => (x === null || x === undefined || Number.isNaN(x) ? '–' : `${f2(x)}×`);
  const lines = [
    `The previous run: \`${p.file}\` of ${p.startedAt ?? 'unknown date'} (load ${p.load ?? 'unknown'}). Each figure is the cell's median over its rounds; ratios are to the bare proxy measured in the same run, so a busier machine moves both. Goals 11 and 12 allow ${SAME_WITHIN * 100}% of movement in the ratios (the noise band, bench/NOTES.md).`,
    '',
    '| cell | daemon req/s before → now | × bare before → now | daemon CPU µs/req before → now | CPU ÷ bare before → now | daemon p99 ms before → now | p99 ÷ bare before → now |',
    '|---|--:|--:|--:|--:|--:|--:|',
  ];
  for (const r of rows) {
    const b = r.before;
    const n = r.now;
    lines.push(
      `| ${r.label} | ${int(b?.daemon.rps)} → ${int(n?.daemon.rps)} | ${ratio(b?.rps)} → ${ratio(n?.rps)} | ${int(b?.daemon.cpuUsPerReq)} → ${int(n?.daemon.cpuUsPerReq)} | ${ratio(b?.cpu)} → ${ratio(n?.cpu)} | ${f1(b?.daemon.p99Ms)} → ${f1(n?.daemon.p99Ms)} | ${ratio(b?.p99)} → ${ratio(n?.p99)} |`,
    );
  }
  return lines.join('\n');
}

function renderUsageAb(ab) {
  if (!ab) return '_not measured in this run_';
  return [
    `Two fresh daemons side by side, 1 subscriber each: A as \`routeplane serve\` runs, B with the token-usage tap, the usage windows and the first-byte histogram taken off the request path and the metrics' decision listener off the bus (\`BENCH_NO_USAGE=1\` in bench/lib/daemon-child.mjs). ${ab.seconds} s cells in the order ${(ab.order ?? ['a', 'b', 'b', 'a', 'b', 'a', 'a', 'b']).join(' ').toUpperCase()}; each figure the median of its side's rounds.`,
    '',
    renderAb(ab.results, ab.names),
  ].join('\n');
}

function renderMonitor(monitor) {
  if (monitor?.status !== 'measured') return `**Not measured** — ${monitor?.note ?? 'not run'}`;
  return [
    `Store fed ${int(monitor.eventsPerSec)} events/s for ${monitor.seconds} s from a recorded stream (${int(monitor.events)} events).`,
    '',
    `Frames are what Ink wrote to a fake 100×32 terminal (maxFps 20, as \`top\` runs it); store updates are React re-renders of the App; heap is measured after a forced GC, 1 s in and at the end. NODE_ENV in the monitor process: ${monitor.nodeEnv} (set before React loads, as \`routeplane top\` does).`,
    '',
    '| renders/s | store updates/s | CPU % of one core | heap at start MB | heap at end MB |',
    '|--:|--:|--:|--:|--:|',
    `| ${f1(monitor.rendersPerSec)} | ${f1(monitor.storeUpdatesPerSec)} | ${f1(monitor.cpuPercent)} | ${f1(monitor.heapStartMB)} | ${f1(monitor.heapEndMB)} |`,
  ].join('\n');
}

export function renderResults(results, goals, opts, notes) {
  const m = results.machine;
  const goalRounds = renderGoalRounds(results.cells);
  return `# Routeplane benchmark results

Produced by \`${results.command}\` on ${results.startedAt} (${f1(results.elapsedSec)} s).
Machine: ${m.cpuModel}, ${m.nproc} cores, ${m.memGiB} GiB; ${m.os}; Node ${m.node}; ${m.wrk}.
Load average at start ${m.loadStart}, at end ${results.loadEnd}. ${m.pinning}
${results.buildWarning ? `Build: ⚠ ${results.buildWarning}\n` : ''}
Method: a mock provider (node:http, its own process), a bare node:http piping proxy with a keep-alive agent
(the limit), and the Routeplane daemon built from \`packages/daemon/dist\` (influence on, decision log on,
${opts.subscribers} \`subscribe\` client attached over the control socket, no V8 flags) each take the same load from
\`wrk -t1\`, ${opts.seconds} s per cell after a warm-up (2 s each of JSON and SSE at c=16 and JSON at c=256 on every target); the cells of one row group run back to back.
The \`claude-code\` and \`codex\` rows are those agents' own requests (bench/lib/agent-bodies.mjs): Claude Code's
110 KB \`POST /v1/messages?beta=true\` (model first, \`metadata.user_id\`, messages with tool calls and file
contents, system, tools, \`stream: true\` last; its headers, session id included) reaching the README's \`sonnet\`
route (\`balance: spread\`, two seats) through the \`claude-sonnet-*\` alias, and Codex's 38 KB \`POST /v1/responses\`
to the \`gpt\` route; each answered with ~200 server-sent events written one per write (Anthropic's with usage in
\`message_start\` and \`message_delta\`, Responses' in \`response.completed\`) and the usage-window headers those
providers send (bench/lib/agent-answers.mjs).
CPU µs per request is the proxy process's own CPU time (process.cpuUsage) over the requests wrk completed;
peak RSS is the kernel's high-water mark (VmHWM, reset before each cell). "added" is the difference to the
mock served directly in the same row group. Direct and bare rows share the load core with wrk, so at high
rates they show the load side's limit as well. The daemon runs the cells in table order, so its RSS carries
the heap earlier cells grew (V8 does not give it back). On a busy machine req/s and latency move with the
neighbours (compare the load averages above); CPU per request is the figure to trust.

## Goals
${
  opts.goalRounds > 0
    ? `Goals 1–3, 8 and 10–12 read each cell's median over ${opts.goalRounds + 1} rounds: the matrix's own cell and ${opts.goalRounds} more after the matrix, targets in alternating order ("Goal cells by round" below; a ratio is of the medians). Goals 4 and 9 read the matrix cell: the daemon's RSS carries what the cells before it grew, and the matrix runs the 2 KB cells first.

`
    : ''
}${renderGoals(goals)}

## Proxy matrix
${renderMatrix(results.cells.filter((c) => !c.round))}
${
  goalRounds
    ? `
## Goal cells by round
${goalRounds}
`
    : ''
}
## Against the previous RESULTS.md
${renderPrevious(results)}

## Usage tap and metrics (A/B)
${renderUsageAb(results.usageAb)}

## Time to first chunk (c=1)
${renderFirstChunk(results.firstChunk, opts)}

## Event path
${renderEventPath(results.eventPath)}

## Microbenchmarks
\`pnpm exec vitest bench --run --config bench/vitest.bench.config.ts\` (bench/micro/*.bench.ts, against source).

${renderMicro(results.micro)}

## Monitor
${renderMonitor(results.monitor)}
${notes ? `\n## Notes\n${notes.trim()}\n` : ''}`;
}
