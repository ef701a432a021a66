/**
 * The soak's figures and invariants, computed from what was collected —
 * pure, so the run itself stays about driving load.
 */

export const RSS_GROWTH_LIMIT_PCT = 20;
/**
 * RSS after warm-up and at the end of the load, each read right after a full GC
 * (what the daemon retains, not the collector's phase), and the growth between them.
 * The per-second samples give the peak and the heap range.
 */
export function rssFigures(measured, samples) {
  const after = measured.warm?.rss ?? null;
  const end = measured.end?.rss ?? null;
  return {
    afterWarmup: after,
    atEnd: end,
    heapAfterWarmup: measured.warm?.heapUsed ?? null,
    heapAtEnd: measured.end?.heapUsed ?? null,
    // where the rest of RSS lives: pages V8 keeps committed, and memory outside the heap (Buffers)
    heapTotalAfterWarmup: measured.warm?.heapTotal ?? null,
    heapTotalAtEnd: measured.end?.heapTotal ?? null,
    externalAfterWarmup: measured.warm?.external ?? null,
    externalAtEnd: measured.end?.external ?? null,
    afterGc: measured.warm?.gc === true && measured.end?.gc === true,
    peak: samples.reduce((max, s) => Math.max(max, s.rss), 0),
    growthPct: after === null || end === null ? null : ((end - after) / after) * 100,
  };
}

/** Probe claims in a snapshot taken with nothing in flight. */
export function probeFigures(snapshot) {
  const maxMs = snapshot.influence.max_cooldown_secs * 1000;
  const claims = snapshot.breakers.filter((b) => b.claimed_at !== null).map((b) => ({ where: b.key, claimedAt: b.claimed_at }));
  return {
    held: claims.length,
    stuck: claims.filter((c) => snapshot.now - c.claimedAt > maxMs).length,
    where: claims.map((c) => c.where),
  };
}

/** Decision lines from the log, checked against what the agents saw. */
export function decisionFigures(lines, agentRequestIds) {
  const ids = new Set();
  let duplicates = 0;
  const statuses = {};
  for (const d of lines) {
    if (ids.has(d.request_id)) duplicates++;
    ids.add(d.request_id);
    statuses[d.status] = (statuses[d.status] ?? 0) + 1;
  }
  let missing = 0;
  for (const id of agentRequestIds) if (!ids.has(id)) missing++;
  return { count: lines.length, duplicates, missing, statuses };
}

export function invariants(f) {
  const check = (name, ok, detail) => ({ name, ok, detail });
  return [
    check('every request answered exactly once (agent side)', f.tally.settled === f.tally.sent, `${f.tally.settled} of ${f.tally.sent}`),
    check('no request without a status (connection failed)', f.tally.outcomes.no_answer === 0, `${f.tally.outcomes.no_answer}`),
    check('no request stuck past the watchdog', f.tally.outcomes.stuck === 0, `${f.tally.outcomes.stuck}`),
    check('no x-routeplane-request-id seen twice', f.tally.duplicateRequestIds === 0, `${f.tally.duplicateRequestIds}`),
    check(
      'one decision per request (daemon side)',
      f.decisions.count === f.tally.sent,
      `${f.decisions.count} decisions for ${f.tally.sent} requests`,
    ),
    check(
      'no decision twice, none missing for an answer',
      f.decisions.duplicates === 0 && f.decisions.missing === 0,
      `dup ${f.decisions.duplicates}, missing ${f.decisions.missing}`,
    ),
    check('daemon request counter = requests sent', f.counters.requests === f.tally.sent, `${f.counters.requests}`),
    check('no upstream request still in progress at rest', f.sockets.busyAtRest === 0, `${f.sockets.busyAtRest}`),
    check('no upstream socket open at the end', f.sockets.openAtEnd === 0, `${f.sockets.openAtEnd}`),
    check('no stuck probe (claimed longer than max_cooldown_secs)', f.probes.stuck === 0, `${f.probes.stuck}`),
    check('no probe claimed with nothing in flight', f.probes.held === 0, f.probes.held === 0 ? '0' : f.probes.where.join(', ')),
    check(
      `RSS growth within ${RSS_GROWTH_LIMIT_PCT}%`,
      f.rss.growthPct !== null && f.rss.growthPct <= RSS_GROWTH_LIMIT_PCT,
      f.rss.growthPct === null ? 'no samples' : `${f.rss.growthPct.toFixed(1)}%`,
    ),
    check('daemon exited 0 on SIGTERM', f.daemonExit.code === 0, `code ${f.daemonExit.code}, signal ${f.daemonExit.signal}`),
    check(
      'every SIGHUP reloaded the config (a reload event each, none refused)',
      f.reloads.sent === f.events.reloads.ok && f.events.reloads.refused === 0,
      `${f.reloads.sent} sent, ${f.events.reloads.ok} applied, ${f.events.reloads.refused} refused`,
    ),
    check('no secret in the daemon output or decision log', f.secretLeaks === 0, `${f.secretLeaks}`),
  ];
}

const mb = (bytes) => (bytes === null ? 'n/a' : `${(bytes / 1024 / 1024).toFixed(1)} MB`);
const sorted = (obj) =>
  Object.entries(obj)
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([k, v]) => `${k}:${v}`)
    .join(' ');

export function renderReport(f, checks) {
  const answered = f.tally.settled;
  const o = f.tally.outcomes;
  const lines = [
    `routeplane soak — ${f.opts.agents} agents, ${f.opts.durationSec} s (warm-up ${f.opts.warmupSec} s), seed ${f.opts.seed}`,
    '',
    `requests sent            ${f.tally.sent}`,
    `responses received       ${answered}  (complete ${o.complete}, ended by a stream error event ${o.stream_error}, body cut ${o.cut}, agent hung up ${o.hung_up}, no answer ${o.no_answer}, stuck ${o.stuck})`,
    `  throughput             ${(f.tally.sent / f.opts.durationSec).toFixed(0)} requests/s`,
    `  statuses (agent side)  ${sorted(f.tally.statuses)}`,
    `daemon decisions         ${f.decisions.count}  (statuses ${sorted(f.decisions.statuses)})`,
    `daemon counters          requests ${f.counters.requests}, failovers ${f.counters.failovers}, fail_open ${f.counters.fail_open}`,
    `background requests      ${f.tally.lanes.background} sent, ${f.tally.backgroundSkipped} held back (503 with Retry-After)`,
    `reloads (SIGHUP)         ${f.reloads.sent} sent, ${f.events.reloads.ok} applied, ${f.events.reloads.refused} refused`,
    `breaker events           ${sorted(f.events.breaker)}${f.events.overflow > 0 ? ` (subscriber overflowed ${f.events.overflow}×)` : ''}`,
    `upstream attempts        ${f.upstream.requests} over ${f.upstream.connections} connections; faults injected: ${sorted(f.upstream.faults)}`,
    `open upstream sockets    ${f.sockets.openAtEnd} at the end (${f.sockets.busyAtRest} busy at rest, ${f.sockets.openAtRest} idle keep-alive at rest, closed by the daemon within ${(f.sockets.closeWaitMs / 1000).toFixed(1)} s)`,
    `stuck probes             ${f.probes.stuck}  (claims held at rest: ${f.probes.held})`,
    `daemon RSS               after warm-up ${mb(f.rss.afterWarmup)}, at the end ${mb(f.rss.atEnd)} → growth ${f.rss.growthPct === null ? 'n/a' : `${f.rss.growthPct.toFixed(1)}%`}` +
      `  (${f.rss.afterGc ? 'each after a full GC' : 'no GC before reading'}; heap ${mb(f.rss.heapAfterWarmup)} → ${mb(f.rss.heapAtEnd)}` +
      ` of ${mb(f.rss.heapTotalAfterWarmup)} → ${mb(f.rss.heapTotalAtEnd)} committed; external ${mb(f.rss.externalAfterWarmup)} → ${mb(f.rss.externalAtEnd)}; peak RSS ${mb(f.rss.peak)})`,
    '',
    ...checks.map((c) => `${c.ok ? 'PASS' : 'FAIL'}  ${c.name} (${c.detail})`),
    '',
    checks.every((c) => c.ok) ? 'soak: every invariant holds' : `soak: ${checks.filter((c) => !c.ok).length} invariant(s) FAILED`,
  ];
  return lines.join('\n');
}
