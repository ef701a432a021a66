#!/usr/bin/env node
// `pnpm bench`: Routeplane side by side with the limit (a bare node:http proxy)
// and with no proxy at all, under the same wrk load; plus first-chunk timing,
// the event path, microbenchmarks and the monitor. Writes bench/RESULTS.md.
//
//   pnpm bench [--seconds N] [--quick] [--no-build] [--skip-micro] [--out FILE] [--keep (the temp dir)]
//              [--baseline FILE]  the RESULTS.md to compare with (default: bench/RESULTS.md as it was before the run)
//   pnpm bench --profile          daemon only, under --cpu-prof; prints where time goes
//                                 (--cells LIST: those workloads, e.g. claude-code-16,200k-json-16; --compare DIST: that build;
//                                  --allocations: bytes allocated per request by function instead of CPU time;
//                                  --survivors with it: only what outlived a scavenge, i.e. what was promoted)
//   pnpm bench --ab usage|spread|bare|commit:REV|DIST   two proxies side by side, cell by cell in A B B A B A A B rounds:
//                                 the daemon against one without the usage tap and metrics, against its
//                                 Claude Code route ordered instead of spread, the bare proxy, the daemon as it was
//                                 at commit REV (built into packages/daemon/dist-SHA first), or the build in DIST
//                                 (--cells LIST, default 2k-sse-16,200k-sse-16,claude-code-16)
//   pnpm bench --clients          bare proxies over node:http, undici.request and undici.dispatch vs the daemon
//                                 (--targets direct,bare,undici-request,undici-dispatch,daemon: only those;
//                                  --compare DIST: also a daemon built into DIST, cell by cell — an A/B on a busy machine;
//                                  --subscribers N: control-socket subscribers per daemon, default 1)
//   pnpm bench --monitor          only the monitor figure (records 2 s of daemon decisions first)
//   pnpm bench --events           only the event path figure (the daemon with 0 and 4 subscribers)
//   pnpm bench --memory           where peak RSS goes: fresh bare proxy and daemon (and --compare DIST builds), one
//                                 cell each (--cells, default claude-code-256), memoryUsage() sampled every 50 ms;
//                                 --node-flags "--trace-gc": node flags for the daemons (a diagnosis, not a setting);
//                                 --targets bare,daemon,daemon-no-usage: which (default bare,daemon); --rounds N (3)
//                                 --snapshot: a heap snapshot of each target 2 s into its first round (kept with --keep);
//                                 BENCH_CLIENT=http-buffered|undici-request|undici-dispatch: the bare proxy's client
//   pnpm bench --shared           only the shared-state figures (three daemons on one Redis: convergence,
//                                 the success path with the Redis store, Redis killed under load)
//
// Loopback only; every loop is bounded; every child is stopped at the end.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { abRounds, cellLabel, parseCellName, renderAb } from './lib/ab.mjs';
import { buildCommit } from './lib/build-commit.mjs';
import { AGENTS, writeBodies, FAMILIES } from './lib/bodies.mjs';
import { measureFirstChunk } from './lib/first-chunk.mjs';
import { computeGoals } from './lib/goals.mjs';
import { describeMachine, loadNow } from './lib/machine.mjs';
import { runMicro } from './lib/micro.mjs';
import { captureSnapshot, measureMonitor } from './lib/monitor.mjs';
import { readPreviousResults } from './lib/previous.mjs';
import { CORE, killAll, startChild } from './lib/processes.mjs';
import { summariseAllocations, summariseProfiles } from './lib/profile-summary.mjs';
import { threadDelta, threadTimes } from './lib/threads.mjs';
import { measureSharedState, renderShared } from './lib/shared-state.mjs';
import { renderMatrix, renderResults } from './lib/report.mjs';
import { ensureWrk, runWrk, writeScript } from './lib/wrk.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const log = (line) => process.stderr.write(`${line}\n`);

// ── options ─────────────────────────────────────────────────────────────
function parseArgs(argv) {
  const opts = { seconds: 4, quick: false, build: true, micro: true, profile: false, out: join(here, 'RESULTS.md') };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--seconds') opts.seconds = Number(argv[++i]);
    else if (a === '--quick') opts.quick = true;
    else if (a === '--no-build') opts.build = false;
    else if (a === '--skip-micro') opts.micro = false;
    else if (a === '--profile') opts.profile = true;
    else if (a === '--clients') opts.clients = true;
    else if (a === '--targets') opts.targets = (argv[++i] ?? '').split(',');
    else if (a === '--compare') (opts.compare ??= []).push(resolve(argv[++i] ?? ''));
    else if (a === '--monitor') opts.monitorOnly = true;
    else if (a === '--events') opts.eventsOnly = true;
    else if (a === '--shared') opts.sharedOnly = true;
    else if (a === '--memory') opts.memoryOnly = true;
    else if (a === '--rounds') opts.rounds = Number(argv[++i]);
    else if (a === '--snapshot') opts.snapshot = true;
    else if (a === '--allocations') opts.allocations = true;
    else if (a === '--survivors') opts.survivors = true;
    else if (a === '--node-flags') opts.nodeFlags = (argv[++i] ?? '').split(' ').filter(Boolean);
    else if (a === '--subscribers') opts.subscribers = Number(argv[++i]);
    else if (a === '--keep') opts.keep = true;
    else if (a === '--ab') opts.ab = argv[++i] ?? '';
    else if (a === '--cells') opts.cells = (argv[++i] ?? '').split(',').filter(Boolean);
    else if (a === '--baseline') opts.baseline = resolve(argv[++i] ?? '');
    else if (a === '--out') opts.out = resolve(argv[++i] ?? '');
    else if (a === '--help' || a === '-h') {
      process.stdout.write(
        readFileSync(fileURLToPath(import.meta.url), 'utf8')
          .split('\n')
          .slice(5, 28)
          .map((l) => l.replace(/^\/\/ ?/, ''))
          .join('\n') + '\n',
      );
      process.exit(0);
    } else throw new Error(`bench: unknown option ${a} (try --help)`);
  }
  if (!(opts.seconds >= 1 && opts.seconds <= 30)) throw new Error('bench: --seconds must be between 1 and 30');
  if (opts.ab === '') throw new Error('bench: --ab needs usage, spread, bare, commit:REV or a build directory');
  if (opts.survivors && !(opts.profile && opts.allocations)) throw new Error('bench: --survivors goes with --profile --allocations');
  opts.cells = opts.cells?.map((name) => parseCellName(name, AGENTS));
  return opts;
}

let opts;
try {
  opts = parseArgs(process.argv.slice(2));
} catch (err) {
  log(err.message);
  process.exit(2);
}
const matrix = opts.quick
  ? { concurrency: [1, 16, 256], sizesKb: [2, 200], seconds: Math.min(opts.seconds, 2) }
  : { concurrency: [1, 16, 64, 256], sizesKb: [2, 200], seconds: opts.seconds };
const settings = {
  seconds: matrix.seconds,
  subscribers: opts.subscribers ?? 1,
  firstChunk: { iterations: opts.quick ? 30 : 120, chunks: 10, gapMs: 2 },
  // two ABBA blocks: 4 s cells on a shared machine swing by ±20% on their own, so each side is
  // the median of four rounds taken in balanced order
  eventPath: { c: 64, rounds: [0, 4, 4, 0, 4, 0, 0, 4] },
  // the cells goals 1–3 read, run twice more after the matrix: one 4 s cell on a shared machine
  // swings by ±20%, so those goals take the median of three rounds (bench/NOTES.md, "Run to run")
  goalRounds: opts.quick ? 0 : 2,
  // what the usage tap and metrics cost: the daemon against one without them, alternating rounds
  usageAb: {
    cells: ['2k-sse-16', '200k-sse-16'].map((name) => parseCellName(name, AGENTS)),
    order: opts.quick ? ['a', 'b'] : undefined,
  },
};

/** What goals 1–3 and 8 compare (goals.mjs): the cells, and the targets each needs (family openai unless said). */
const GOAL_CELLS = [
  { kb: 2, stream: false, c: 16, through: ['bare', 'daemon'] },
  { kb: 2, stream: false, c: 64, through: ['bare', 'daemon'] },
  { kb: 2, stream: true, c: 16, through: ['direct', 'bare', 'daemon'] },
  { kb: 2, stream: true, c: 256, through: ['bare', 'daemon'] },
  { kb: 200, stream: false, c: 16, through: ['bare', 'daemon'] },
  { kb: 200, stream: true, c: 16, through: ['bare', 'daemon'] },
  { kb: 200, stream: true, c: 256, through: ['bare', 'daemon'] },
  { family: 'claude-code', kb: AGENTS['claude-code'].kb, stream: true, c: 16, through: ['bare', 'daemon'] },
  { family: 'claude-code', kb: AGENTS['claude-code'].kb, stream: true, c: 256, through: ['bare', 'daemon'] },
];

// ── lifecycle: bounded, and nothing left behind ──────────────────────────
const WATCHDOG_MS = 20 * 60_000;
const watchdog = setTimeout(() => {
  log(`bench: still running after ${WATCHDOG_MS / 60_000} minutes — stopping everything`);
  killAll();
  process.exit(1);
}, WATCHDOG_MS);
watchdog.unref();
const dir = mkdtempSync(join(tmpdir(), 'routeplane-bench-'));
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    killAll();
    rmSync(dir, { recursive: true, force: true });
    process.exit(130);
  });
}

const children = [];
const started = Date.now();
const machine = describeMachine();
let buildWarning = null;

try {
  await main();
} catch (err) {
  log(`bench failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exitCode = 1;
} finally {
  await Promise.allSettled(children.map((c) => c.stop()));
  killAll();
  if (opts.keep) log(`kept ${dir}`);
  else rmSync(dir, { recursive: true, force: true });
}

async function main() {
  ensureWrk(log);
  buildWarning = opts.build ? build() : 'not rebuilt (--no-build)';
  const requestFor = writeBodies(dir, matrix.sizesKb);
  const scriptFor = (family, stream, kb) => writeScript(dir, `${family}-${stream ? 'sse' : 'json'}-${kb}k`, requestFor(family, stream, kb));
  // read before this run replaces it
  const previous = readPrevious();

  log('starting the mock provider, the bare proxy and the daemon…');
  const mock = track(await startChild('mock provider', join(here, 'lib/mock-provider.mjs'), { core: CORE.load }));
  const upstream = mock.ready.url;
  if (opts.profile) return profile(upstream, scriptFor);
  if (opts.clients) return compareClients(upstream, scriptFor);
  if (opts.monitorOnly) return monitorOnly(upstream, scriptFor);
  if (opts.eventsOnly) return eventsOnly(upstream, scriptFor);
  if (opts.sharedOnly) return sharedOnly(upstream, scriptFor);
  if (opts.ab) return abOnly(upstream, scriptFor);
  if (opts.memoryOnly) return memoryOnly(upstream, scriptFor);

  const bare = track(
    await startChild('bare proxy', join(here, 'lib/bare-proxy.mjs'), { core: CORE.proxy, env: { BENCH_UPSTREAM: upstream } }),
  );
  const daemon = track(await startDaemonChild(upstream));
  const targets = {
    direct: { url: upstream, child: null },
    bare: { url: bare.ready.url, child: bare },
    daemon: { url: daemon.ready.url, child: daemon },
  };
  await sanityCheck(targets, requestFor);

  const subs = track(
    await startChild('subscribers', join(here, 'lib/subscribers.mjs'), { core: CORE.load, env: { BENCH_SOCKET: daemon.ready.socketPath } }),
  );
  await subs.ask('attach', { count: settings.subscribers });

  const cell = (through, family, stream, kb, c, seconds = matrix.seconds) =>
    runCell(targets[through], scriptFor(family, stream, kb), c, seconds);

  log('warming up…');
  for (const through of ['direct', 'bare', 'daemon']) {
    for (const stream of [false, true]) await cell(through, 'openai', stream, 2, 16, 2);
    // the first burst of 256 new connections is a one-time cost (a fresh daemon's first c=256
    // cell had a p99 of 290–490 ms against 150–190 ms in the next ones; bench/NOTES.md):
    // every target gets it here, so the matrix measures the steady state for all three
    await cell(through, 'openai', false, 2, 256, 2);
  }

  const cells = [];
  const groups = [];
  for (const kb of matrix.sizesKb)
    for (const stream of [false, true]) for (const c of matrix.concurrency) groups.push({ family: 'openai', kb, stream, c });
  groups.push({ family: 'anthropic', kb: 2, stream: false, c: 16 }, { family: 'anthropic', kb: 2, stream: true, c: 16 });
  for (const [family, agent] of Object.entries(AGENTS))
    for (const c of matrix.concurrency) groups.push({ family, kb: agent.kb, stream: true, c });
  for (const [i, g] of groups.entries()) {
    for (const through of ['direct', 'bare', 'daemon']) {
      const r = await cell(through, g.family, g.stream, g.kb, g.c);
      cells.push({ ...g, through, round: 0, ...r });
      log(
        `[${i + 1}/${groups.length}] ${g.family} ${g.kb} KB ${g.stream ? 'SSE ' : 'JSON'} c=${String(g.c).padStart(3)} ${through.padEnd(6)} ${Math.round(r.rps).toString().padStart(6)} req/s  p50 ${r.p50Ms.toFixed(2)} ms  p99 ${r.p99Ms.toFixed(2)} ms${r.cpuUsPerReq ? `  ${Math.round(r.cpuUsPerReq)} µs/req` : ''}${r.errors ? `  ⚠ ${r.errors} errors` : ''}`,
      );
    }
  }

  for (let round = 1; round <= settings.goalRounds; round++) {
    log(`goal cells, round ${round + 1} of ${settings.goalRounds + 1}…`);
    for (const g of GOAL_CELLS) {
      // the order flips each round, so neither target always runs first
      const order = round % 2 === 1 ? [...g.through].reverse() : g.through;
      const family = g.family ?? 'openai';
      for (const through of order) {
        const r = await cell(through, family, g.stream, g.kb, g.c);
        cells.push({ family, kb: g.kb, stream: g.stream, c: g.c, through, round, ...r });
      }
    }
  }

  log('time to first chunk at c=1…');
  const fc = settings.firstChunk;
  const firstChunk = await measureFirstChunk(
    ['direct', 'bare', 'daemon'].map((name) => ({ name, url: targets[name].url })),
    {
      path: FAMILIES.openai.path,
      body: readFileSync(requestFor('openai', true, 2).bodyFile),
      headers: FAMILIES.openai.headers,
      iterations: fc.iterations,
      chunks: fc.chunks,
      gapMs: fc.gapMs,
    },
  );

  log('event path: 0 vs 4 subscribers…');
  const eventPath = await measureEventPath(subs, (seconds) => cell('daemon', 'openai', false, 2, settings.eventPath.c, seconds));

  await captureSnapshot(daemon.ready.socketPath, dir).catch((err) => log(`monitor: ${err.message}`));
  // the matrix's proxies and subscribers go; the mock provider stays for the figures below
  for (const c of children.splice(0).filter((c) => c !== mock)) await c.stop();
  children.push(mock);

  log('usage tap and metrics: the daemon against one without them…');
  const usageAb = await usageFigures(upstream, scriptFor);

  const shared = await sharedFigures(upstream, scriptFor).catch((err) => {
    log(`shared state: ${err.message}`);
    return null;
  });

  let micro = null;
  if (opts.micro) {
    log('microbenchmarks (vitest bench)…');
    // a microbenchmark that no longer builds must not cost the whole run its figures
    micro = await runMicro(root, dir, log).catch((err) => {
      log(`microbenchmarks: ${err.message}`);
      return null;
    });
  }
  log('monitor…');
  const monitor = await measureMonitor({ root, dir });

  const results = {
    command: ['pnpm bench', ...process.argv.slice(2)].join(' '),
    buildWarning,
    startedAt: new Date(started).toISOString(),
    elapsedSec: (Date.now() - started) / 1000,
    machine,
    loadEnd: loadNow(),
    cells,
    firstChunk,
    eventPath,
    usageAb,
    micro,
    monitor,
    previous,
  };
  const goals = computeGoals(results);
  const notesFile = join(here, 'NOTES.md');
  const notes = existsSync(notesFile) ? readFileSync(notesFile, 'utf8') : null;
  const markdown = renderResults(results, goals, settings, notes) + renderShared(shared);
  writeFileSync(opts.out, markdown);
  process.stdout.write(markdown);
  log(`\nwritten to ${relative(process.cwd(), opts.out) || opts.out}`);
}

function track(child) {
  children.push(child);
  return child;
}

/** The figures of the RESULTS.md this run compares with (`--baseline`, else the one it replaces); null when there is none. */
function readPrevious() {
  const file = opts.baseline ?? join(here, 'RESULTS.md');
  if (!existsSync(file)) {
    if (opts.baseline) throw new Error(`bench: --baseline ${file} does not exist`);
    return null;
  }
  const read = readPreviousResults(readFileSync(file, 'utf8'));
  if (read === null && opts.baseline) throw new Error(`bench: ${file} has no proxy matrix to compare with`);
  return read === null ? null : { ...read, file: relative(root, file) };
}

/** A daemon for an A/B: its own directory and one subscriber attached, like the matrix's daemon. */
async function abDaemon(upstream, dist, env) {
  const daemon = track(await startDaemonChild(upstream, [], dist, { BENCH_DIR: mkdtempSync(join(dir, 'ab-')), ...env }));
  const subs = track(
    await startChild('subscribers', join(here, 'lib/subscribers.mjs'), { core: CORE.load, env: { BENCH_SOCKET: daemon.ready.socketPath } }),
  );
  await subs.ask('attach', { count: settings.subscribers });
  return { url: daemon.ready.url, child: daemon, stop: () => Promise.allSettled([subs.stop(), daemon.stop()]) };
}

/** The bare node:http proxy as the B side of an A/B (the matrix's limit, in rounds with the daemon). */
async function abBare(upstream) {
  const bare = track(
    await startChild('bare proxy', join(here, 'lib/bare-proxy.mjs'), { core: CORE.proxy, env: { BENCH_UPSTREAM: upstream } }),
  );
  return { url: bare.ready.url, child: bare, stop: () => bare.stop() };
}

/** What an `--ab` kind compares: A is always the current daemon as the matrix runs it. (A function: main runs before module-level consts below it exist.) */
function abKind(kind) {
  if (kind === 'usage') return { names: { a: 'with usage', b: 'without' }, b: { dist: null, env: { BENCH_NO_USAGE: '1' } } };
  // one part of it: usage:tap, usage:observe, usage:metrics
  if (kind.startsWith('usage:'))
    return { names: { a: 'with usage', b: `without ${kind.slice(6)}` }, b: { dist: null, env: { BENCH_NO_USAGE: kind.slice(6) } } };
  if (kind === 'spread') return { names: { a: 'spread', b: 'ordered' }, b: { dist: null, env: { BENCH_BALANCE: 'ordered' } } };
  if (kind === 'bare') return { names: { a: 'daemon', b: 'bare proxy' }, b: 'bare' };
  if (kind.startsWith('commit:')) {
    log(`building the daemon of ${kind.slice(7)}…`);
    const { sha, dist } = buildCommit(root, kind.slice(7));
    return { names: { a: 'current', b: `commit ${sha}` }, b: { dist, env: {} } };
  }
  return { names: { a: 'current', b: relative(root, resolve(kind)) }, b: { dist: resolve(kind), env: {} } };
}

async function runAb(upstream, scriptFor, kind, cells, order) {
  const spec = abKind(kind);
  const a = await abDaemon(upstream, null, {});
  const b = spec.b === 'bare' ? await abBare(upstream) : await abDaemon(upstream, spec.b.dist, spec.b.env);
  try {
    const results = await abRounds({
      a,
      b,
      cells,
      order,
      log,
      run: (target, cell, seconds = matrix.seconds) => runCell(target, scriptFor(cell.family, cell.stream, cell.kb), cell.c, seconds),
    });
    return { kind, names: spec.names, seconds: matrix.seconds, order: order ?? null, results };
  } finally {
    await Promise.allSettled([a.stop(), b.stop()]);
  }
}

/** The full run's usage figure: what the usage tap and the metrics cost on the streaming cells. */
function usageFigures(upstream, scriptFor) {
  return runAb(upstream, scriptFor, 'usage', settings.usageAb.cells, settings.usageAb.order).catch((err) => {
    log(`usage A/B: ${err.message}`);
    return null;
  });
}

/** `--ab KIND`: only that comparison, printed. */
async function abOnly(upstream, scriptFor) {
  const cells = opts.cells ?? ['2k-sse-16', '200k-sse-16', 'claude-code-16'].map((name) => parseCellName(name, AGENTS));
  const ab = await runAb(upstream, scriptFor, opts.ab, cells, opts.quick ? ['a', 'b'] : undefined);
  process.stdout.write(`A: ${ab.names.a}, B: ${ab.names.b}; ${ab.seconds} s cells\n\n${renderAb(ab.results, ab.names)}\n`);
}

/**
 * Builds the daemon (and the monitor) from source. Other work in the tree can leave type errors
 * behind; tsc still emits, so a failed build is a warning carried into RESULTS.md, not a stop —
 * the sanity check then proves the built daemon routes before anything is measured. `--force`
 * (≈10 s): `tsc -b` trusts its build info and leaves an output alone while its source is
 * unchanged, so a file in dist/ edited by hand during an experiment would otherwise be measured
 * instead of the source.
 */
function build() {
  log('building (tsc -b --force packages/shared packages/daemon packages/tui)…');
  const warnings = [];
  for (const projects of [['packages/shared', 'packages/daemon'], ['packages/tui']]) {
    try {
      execFileSync('pnpm', ['exec', 'tsc', '-b', '--force', ...projects], {
        cwd: root,
        stdio: ['ignore', 'pipe', 'pipe'],
        encoding: 'utf8',
      });
    } catch (err) {
      const errors = `${err.stdout ?? ''}${err.stderr ?? ''}`
        .trim()
        .split('\n')
        .filter((l) => l.includes('error TS'));
      warnings.push(`tsc -b ${projects.join(' ')}: ${errors.length} type error(s), first: ${errors[0] ?? 'none printed'}`);
      log(`warning: ${warnings.at(-1)}`);
    }
  }
  return warnings.length ? warnings.join('; ') : null;
}

function startDaemonChild(upstream, execArgv = [], dist = null, extraEnv = {}) {
  if (!existsSync(join(dist ?? join(root, 'packages/daemon/dist'), 'index.js')))
    throw new Error(`${dist ?? 'packages/daemon/dist'}/index.js is missing: run pnpm build`);
  // each daemon its own directory: socket and decision log
  const daemonDir = dist === null ? dir : mkdtempSync(join(dir, 'daemon-'));
  const env = { BENCH_UPSTREAM: upstream, BENCH_DIR: daemonDir, ...(dist === null ? {} : { BENCH_DAEMON_DIST: dist }), ...extraEnv };
  return startChild('daemon', join(here, 'lib/daemon-child.mjs'), { core: CORE.proxy, env, execArgv });
}

/** One wrk run against one target, with the target process's CPU time and peak RSS around it. */
async function runCell(target, script, c, seconds) {
  const proxy = target.child;
  proxy?.resetPeakRss();
  const cpuBefore = proxy ? await proxy.cpuMicros() : 0;
  const r = await runWrk({ url: target.url, script, connections: c, seconds });
  const cpuAfter = proxy ? await proxy.cpuMicros() : 0;
  const peak = proxy?.peakRss() ?? null;
  return {
    ...r,
    cpuUsPerReq: proxy && r.requests > 0 ? (cpuAfter - cpuBefore) / r.requests : null,
    cpuPercent: proxy ? ((cpuAfter - cpuBefore) / (seconds * 1e6)) * 100 : null,
    peakRssMB: peak === null ? null : peak / 2 ** 20,
  };
}

/** Requests through each target must be what the bench thinks they are, or the figures mean nothing. */
async function sanityCheck(targets, requestFor) {
  const expectations = [
    { family: 'openai', model: 'gpt-mock', auth: ['authorization', 'Bearer sk-bench-a'], served: 'oai-main/gpt-mock' },
    { family: 'anthropic', model: 'claude-mock', auth: ['x_api_key', 'sk-bench-c'], served: 'ant-main/claude-mock' },
  ];
  for (const e of expectations) {
    const f = FAMILIES[e.family];
    const res = await fetch(targets.daemon.url + f.path, {
      method: 'POST',
      headers: { ...f.headers, 'x-mock-echo': '1' },
      body: JSON.stringify({ model: f.route, stream: false, messages: [] }),
    });
    const text = await res.text();
    if (res.status !== 200) throw new Error(`sanity: daemon answered ${res.status} for ${e.family}: ${text.slice(0, 300)}`);
    const echo = JSON.parse(text).echo;
    if (echo.model !== e.model) throw new Error(`sanity: upstream saw model ${echo.model}, expected ${e.model}`);
    if (echo[e.auth[0]] !== e.auth[1]) throw new Error(`sanity: upstream did not get the seat's key in ${e.auth[0]}`);
    const served = res.headers.get('x-routeplane-target');
    if (served !== e.served) throw new Error(`sanity: x-routeplane-target is ${served}, expected ${e.served}`);
  }
  for (const name of ['bare', 'daemon']) {
    const f = FAMILIES.openai;
    const res = await fetch(targets[name].url + f.path, {
      method: 'POST',
      headers: f.headers,
      body: JSON.stringify({ model: f.route, stream: true, messages: [] }),
    });
    const text = await res.text();
    const chunks = text.split('\n\n').filter((s) => s.startsWith('data: {')).length;
    if (res.status !== 200 || chunks !== 20 || !text.includes('data: [DONE]'))
      throw new Error(`sanity: ${name} streamed ${res.status} with ${chunks}/20 chunks`);
  }
  // the agents' own requests: routed by the README's config (an alias, a spread route), ~200 events back
  for (const [agent, served] of [
    ['claude-code', /^ant-(main|spare)\/claude-sonnet-4-5$/],
    ['codex', /^oai-main\/gpt-5$/],
  ]) {
    const shape = requestFor(agent, true, AGENTS[agent].kb);
    for (const name of ['bare', 'daemon']) {
      const res = await fetch(targets[name].url + shape.path, {
        method: 'POST',
        headers: shape.headers,
        body: readFileSync(shape.bodyFile),
      });
      const text = await res.text();
      const events = text.split('\n\n').filter((e) => e.startsWith('event: ')).length;
      if (res.status !== 200 || events < 190) throw new Error(`sanity: ${name} answered ${agent} ${res.status} with ${events} events`);
      const target = res.headers.get('x-routeplane-target');
      if (name === 'daemon' && !served.test(target ?? '')) throw new Error(`sanity: ${agent} was served by ${target}`);
    }
  }
}

/** ABBA rounds of the same daemon cell with 0 and 4 subscribers; events counted by the subscribers. */
async function measureEventPath(subs, runDaemonCell) {
  const seconds = matrix.seconds;
  const acc = { 0: [], 4: [] };
  let overflowed = false;
  for (const n of settings.eventPath.rounds) {
    await subs.ask('attach', { count: n });
    const before = await subs.ask('counts');
    const r = await runDaemonCell(seconds);
    const after = await subs.ask('counts');
    const received = after.events.map((e, i) => e - (before.events[i] ?? 0));
    overflowed ||= after.overflowed || after.open < n;
    acc[n].push({ ...r, eventsPerSecPerSubscriber: n ? received.reduce((a, b) => a + b, 0) / n / seconds : null });
    log(
      `  ${n} subscribers: ${Math.round(r.rps)} req/s, ${Math.round(r.cpuUsPerReq)} µs/req${n ? `, ${Math.round(acc[n].at(-1).eventsPerSecPerSubscriber)} events/s each` : ''}`,
    );
  }
  await subs.ask('attach', { count: settings.subscribers });
  const median = (xs, k) => {
    const v = xs.map((x) => x[k]).sort((a, b) => a - b);
    const mid = v.length >> 1;
    return v.length % 2 ? v[mid] : (v[mid - 1] + v[mid]) / 2;
  };
  const side = (xs) => ({ rps: median(xs, 'rps'), cpuUsPerReq: median(xs, 'cpuUsPerReq'), roundsRps: xs.map((x) => x.rps) });
  return {
    c: settings.eventPath.c,
    seconds,
    rounds: settings.eventPath.rounds.length,
    order: settings.eventPath.rounds,
    without: side(acc[0]),
    with4: {
      ...side(acc[4]),
      eventsPerSecPerSubscriber: median(acc[4], 'eventsPerSecPerSubscriber'),
      eventsPerSecTotal: median(acc[4], 'eventsPerSecPerSubscriber') * 4,
      overflowed,
    },
  };
}

/**
 * `--profile`: each workload on a fresh daemon, warmed up, then one cell under the in-process CPU
 * profiler (start-up and warm-up stay out of it); where its CPU time went, per request.
 * `--targets bare`: the bare proxy instead, profiled the same way (what the limit itself spends).
 */
async function profile(upstream, scriptFor) {
  const seconds = Math.max(matrix.seconds, 8);
  const out = [];
  const workloads = opts.cells ?? ['2k-json-64', '2k-sse-64', '200k-json-16', 'claude-code-16'].map((name) => parseCellName(name, AGENTS));
  const bare = opts.targets?.includes('bare') ?? false;
  for (const { family, stream, kb, c, name } of workloads) {
    const profileDir = mkdtempSync(join(tmpdir(), `routeplane-profile-${bare ? 'bare-' : ''}${name}-`));
    const proxy = bare
      ? track(await startChild('bare proxy', join(here, 'lib/bare-proxy.mjs'), { core: CORE.proxy, env: { BENCH_UPSTREAM: upstream } }))
      : track(await startDaemonChild(upstream, [], opts.compare?.[0] ?? null));
    const subs = bare
      ? null
      : track(
          await startChild('subscribers', join(here, 'lib/subscribers.mjs'), {
            core: CORE.load,
            env: { BENCH_SOCKET: proxy.ready.socketPath },
          }),
        );
    await subs?.ask('attach', { count: settings.subscribers });
    const script = scriptFor(family, stream, kb);
    const target = { url: proxy.ready.url, child: proxy };
    await runCell(target, script, c, 2); // warm-up
    const what = opts.allocations ? 'allocations' : 'profile';
    await proxy.ask(`${what}-start`, opts.survivors ? { survivors: true } : {});
    const threadsBefore = threadTimes(proxy.pid);
    const r = await runCell(target, script, c, seconds);
    const threads = threadDelta(threadsBefore, threadTimes(proxy.pid));
    const file = join(profileDir, opts.allocations ? 'cell.heapprofile' : 'cell.cpuprofile');
    await proxy.ask(`${what}-stop`, { file }, 30_000);
    const label = `${bare ? 'bare proxy, ' : ''}${cellLabel({ family, stream, kb, c })}: ${Math.round(r.rps)} req/s, ${Math.round(r.cpuUsPerReq)} µs/req`;
    log(`profiled ${label}`);
    await subs?.stop();
    await proxy.stop(10_000);
    const byThread = Object.entries(threads)
      .filter(([, us]) => us > 0)
      .sort((a, b) => b[1] - a[1])
      .map(([name, us]) => `${name} ${(us / r.requests).toFixed(0)}`)
      .join(', ');
    const summary = opts.allocations
      ? summariseAllocations(file, root, r.requests)
      : summariseProfiles(profileDir, root, { requests: r.requests });
    const scope = opts.allocations && opts.survivors ? 'Only what outlived a scavenge (promoted, or alive at the end).\n\n' : '';
    out.push(
      `# ${label}\n(profile: ${profileDir})\n\nCPU µs per request by thread (/proc, 10 ms ticks): ${byThread}\n\n${scope}${summary}`,
    );
  }
  process.stdout.write(out.join('\n\n'));
}

/** `--clients`: which upstream client costs what, as bare proxies beside the daemon, same load. */
async function compareClients(upstream, scriptFor) {
  const wanted = (name) => !opts.targets || opts.targets.includes(name);
  const targets = {};
  if (wanted('direct')) targets.direct = { url: upstream, child: null };
  for (const kind of ['http', 'http-buffered', 'undici-request', 'undici-dispatch']) {
    if (!wanted(kind === 'http' ? 'bare' : kind)) continue;
    const child = track(
      await startChild(`bare proxy (${kind})`, join(here, 'lib/bare-proxy.mjs'), {
        core: CORE.proxy,
        env: { BENCH_UPSTREAM: upstream, BENCH_CLIENT: kind },
      }),
    );
    targets[kind === 'http' ? 'bare' : kind] = { url: child.ready.url, child };
  }
  const daemon = track(await startDaemonChild(upstream));
  if (wanted('daemon')) targets.daemon = { url: daemon.ready.url, child: daemon };
  for (const [i, dist] of (opts.compare ?? []).entries()) {
    const other = track(await startDaemonChild(upstream, [], dist));
    targets[`daemon ${String.fromCharCode(66 + i)}`] = { url: other.ready.url, child: other };
    log(`daemon ${String.fromCharCode(66 + i)}: ${dist}`);
    const otherSubs = track(
      await startChild('subscribers', join(here, 'lib/subscribers.mjs'), {
        core: CORE.load,
        env: { BENCH_SOCKET: other.ready.socketPath },
      }),
    );
    await otherSubs.ask('attach', { count: settings.subscribers });
  }
  const subs = track(
    await startChild('subscribers', join(here, 'lib/subscribers.mjs'), { core: CORE.load, env: { BENCH_SOCKET: daemon.ready.socketPath } }),
  );
  await subs.ask('attach', { count: settings.subscribers });
  const cells = [];
  const workloads = opts.cells ?? ['2k-json-16', '2k-json-64', '2k-sse-16', '200k-json-16'].map((name) => parseCellName(name, AGENTS));
  for (const { family, stream, kb, c } of workloads) {
    for (const [through, target] of Object.entries(targets)) {
      await runCell(target, scriptFor(family, stream, kb), c, 1);
      const r = await runCell(target, scriptFor(family, stream, kb), c, matrix.seconds);
      cells.push({ family, stream, kb, c, through, ...r });
      log(
        `${cellLabel({ family, stream, kb, c })} ${through.padEnd(16)} ${Math.round(r.rps)} req/s ${r.cpuUsPerReq ? Math.round(r.cpuUsPerReq) + ' µs/req' : ''}`,
      );
    }
  }
  process.stdout.write(renderMatrix(cells) + '\n');
}

/** `--events`: only the event path — the same daemon cell with 0 and 4 subscribers, alternating. */
async function eventsOnly(upstream, scriptFor) {
  const daemon = track(await startDaemonChild(upstream));
  const target = { url: daemon.ready.url, child: daemon };
  const subs = track(
    await startChild('subscribers', join(here, 'lib/subscribers.mjs'), { core: CORE.load, env: { BENCH_SOCKET: daemon.ready.socketPath } }),
  );
  await runCell(target, scriptFor('openai', false, 2), settings.eventPath.c, 2); // warm-up
  const eventPath = await measureEventPath(subs, (seconds) =>
    runCell(target, scriptFor('openai', false, 2), settings.eventPath.c, seconds),
  );
  process.stdout.write(`${JSON.stringify(eventPath, null, 2)}\n`);
}

/**
 * The shared-state figures: convergence and the outage on three daemons
 * over one Redis, then the success path of a daemon with the Redis store beside one with the
 * memory store, in ABBA rounds of the same cell (c=16, 2 KB JSON).
 */
async function sharedFigures(upstream, scriptFor) {
  const f = FAMILIES.openai;
  const startDaemon = (env) => startDaemonChild(upstream, [], null, { BENCH_DIR: mkdtempSync(join(dir, 'shared-')), ...env });
  const figures = await measureSharedState({
    startDaemon,
    trips: opts.quick ? 50 : 200,
    log,
    chatPath: f.path,
    chatHeaders: f.headers,
    chatBody: JSON.stringify({ model: f.route, stream: false, messages: [] }),
  });
  log('shared state: the success path, memory store vs Redis store…');
  const { startRedisServer } = await import('./lib/shared-state.mjs');
  const redis = await startRedisServer();
  try {
    const memory = await startDaemon({});
    const shared = await startDaemon({ BENCH_SHARED_REDIS: redis.url });
    const targets = { memory: { url: memory.ready.url, child: memory }, redis: { url: shared.ready.url, child: shared } };
    const script = scriptFor('openai', false, 2);
    const seconds = Math.min(matrix.seconds, opts.quick ? 2 : 4);
    for (const t of Object.values(targets)) await runCell(t, script, 16, 1); // warm-up
    const rounds = { memory: [], redis: [] };
    for (const name of ['memory', 'redis', 'redis', 'memory', 'redis', 'memory', 'memory', 'redis']) {
      const r = await runCell(targets[name], script, 16, seconds);
      rounds[name].push(r);
      log(`  ${name.padEnd(6)} ${Math.round(r.rps)} req/s  p50 ${r.p50Ms.toFixed(3)} ms  p99 ${r.p99Ms.toFixed(2)} ms`);
    }
    const median = (xs) => {
      const v = [...xs].sort((a, b) => a - b);
      return v.length % 2 ? v[v.length >> 1] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    };
    const side = (xs) => ({
      rps: median(xs.map((x) => x.rps)),
      p50Ms: median(xs.map((x) => x.p50Ms)),
      p99Ms: median(xs.map((x) => x.p99Ms)),
    });
    figures.successPath = { c: 16, seconds, rounds: 4, memory: side(rounds.memory), redis: side(rounds.redis) };
    figures.successPath.addedP50Ms = figures.successPath.redis.p50Ms - figures.successPath.memory.p50Ms;
    log(`  added p50 with the Redis store: ${figures.successPath.addedP50Ms.toFixed(3)} ms`);
    await Promise.allSettled([memory.stop(), shared.stop()]);
  } finally {
    await redis.stop();
  }
  return figures;
}

/** `--memory`: each target fresh, warmed up on the cell, then its memory sampled through one cell. */
async function memoryOnly(upstream, scriptFor) {
  const { sampleMemory } = await import('./lib/memory-probe.mjs');
  const cells = opts.cells ?? [parseCellName('claude-code-256', AGENTS)];
  const starters = {
    bare: () =>
      startChild('bare proxy', join(here, 'lib/bare-proxy.mjs'), {
        core: CORE.proxy,
        env: { BENCH_UPSTREAM: upstream },
        execArgv: opts.nodeFlags ?? [],
      }),
    daemon: () => startDaemonChild(upstream, opts.nodeFlags ?? [], null, { BENCH_DIR: mkdtempSync(join(dir, 'memory-')) }),
    'daemon-no-usage': () =>
      startDaemonChild(upstream, opts.nodeFlags ?? [], null, { BENCH_DIR: mkdtempSync(join(dir, 'memory-')), BENCH_NO_USAGE: '1' }),
  };
  for (const name of Object.keys(starters))
    if (opts.targets ? !opts.targets.includes(name) : name === 'daemon-no-usage') delete starters[name];
  for (const dist of opts.compare ?? []) starters[relative(root, dist)] = () => startDaemonChild(upstream, opts.nodeFlags ?? [], dist);
  const rows = [
    '| cell | target | VmHWM MB (median) | peak rss | heapTotal | external | arrayBuffers | CPU µs/req | VmHWM MB by round |',
    '|---|---|--:|--:|--:|--:|--:|--:|---|',
  ];
  const rounds = opts.rounds ?? 3;
  const med = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
  const f = (x) => x.toFixed(1);
  for (const cell of cells) {
    const seen = Object.fromEntries(Object.keys(starters).map((name) => [name, []]));
    const names = Object.keys(starters);
    for (let round = 0; round < rounds; round++) {
      // a fresh process per round, the targets in rotating order: a busy moment falls on each in turn
      for (const name of [...names.slice(round % names.length), ...names.slice(0, round % names.length)]) {
        const child = track(await starters[name]());
        const target = { url: child.ready.url, child };
        const script = scriptFor(cell.family, cell.stream, cell.kb);
        await runCell(target, script, cell.c, 2);
        const liveAtMs = opts.nodeFlags?.includes('--expose-gc') ? (matrix.seconds * 1000) / 2 : null;
        const snapshotAt = opts.snapshot && round === 0 ? join(dir, `${name.replace(/\W+/g, '-')}.heapsnapshot`) : null;
        const {
          result: r,
          peak,
          live,
          spacesAtPeak,
        } = await sampleMemory(child, () => runCell(target, script, cell.c, matrix.seconds), { liveAtMs, snapshot: snapshotAt });
        if (snapshotAt) log(`  heap snapshot: ${snapshotAt}`);
        seen[name].push({ ...peak, hwm: r.peakRssMB, cpu: r.cpuUsPerReq });
        log(
          `  ${cellLabel(cell)} ${name}: ${Math.round(r.cpuUsPerReq)} µs/req, VmHWM ${f(r.peakRssMB)} MB, rss ${f(peak.rss)}, heap ${f(peak.heapTotal)}, external ${f(peak.external)}, arrayBuffers ${f(peak.arrayBuffers)} (heap spaces at the RSS peak: ${Object.entries(
            spacesAtPeak ?? {},
          )
            .map(([space, bytes]) => `${space.replace(/_space$/, '')} ${f(bytes / 2 ** 20)}`)
            .join(', ')})${live ? `; live after a forced GC: heap ${f(live.heapUsed)}, arrayBuffers ${f(live.arrayBuffers)}` : ''}`,
        );
        await child.stop();
      }
    }
    for (const [name, xs] of Object.entries(seen)) {
      const m = (k) => f(med(xs.map((x) => x[k])));
      rows.push(
        `| ${cellLabel(cell)} | ${name} | ${m('hwm')} | ${m('rss')} | ${m('heapTotal')} | ${m('external')} | ${m('arrayBuffers')} | ${Math.round(med(xs.map((x) => x.cpu)))} | ${xs.map((x) => f(x.hwm)).join(', ')} |`,
      );
    }
  }
  process.stdout.write(`${rows.join('\n')}\n`);
}

/** `--shared`: only the shared-state figures. */
async function sharedOnly(upstream, scriptFor) {
  const figures = await sharedFigures(upstream, scriptFor);
  process.stdout.write(renderShared(figures));
}

/** `--monitor`: record 2 s of real decisions and a snapshot, then only the monitor figure. */
async function monitorOnly(upstream, scriptFor) {
  const daemon = track(await startDaemonChild(upstream));
  await runCell({ url: daemon.ready.url, child: daemon }, scriptFor('openai', false, 2), 16, 2);
  await captureSnapshot(daemon.ready.socketPath, dir);
  for (const c of children.splice(0)) await c.stop();
  const monitor = await measureMonitor({ root, dir });
  process.stdout.write(`${JSON.stringify(monitor, null, 2)}\n`);
}
