#!/usr/bin/env node
// `pnpm soak [--duration S] [--agents N] [--seed N] [--warmup S]` (needs `pnpm build` first).
//
// 200 simulated agents (default) for 120 s (default) against the BUILT daemon,
// run as a child process, in front of fake seats that inject every hostile
// upstream fault of the upstream-fault tests at random, with a healthy majority.
// Loopback only; bounded; stops by itself. Prints the figures and exits
// non-zero when an invariant fails (see report.mjs).
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createArrivals, createTally, runAgents } from './agents.mjs';
import { command, subscribeCounting } from './control.mjs';
import { startDaemonChild } from './daemon.mjs';
import { parseOptions } from './options.mjs';
import { createRandom } from './random.mjs';
import { decisionFigures, invariants, probeFigures, renderReport, rssFigures } from './report.mjs';
import { startSeats } from './seats.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const log = (line) => process.stderr.write(`soak: ${line}\n`);

/**
 * Seats and routes: two families, chains of two to four targets. One seat of
 * each family is flaky (4× the faults, over half its answers, but few 429s),
 * the others steady (a third of the faults, about 5%): the flaky ones trip and
 * are probed over and over, the steady ones keep most requests off fail-open.
 */
const SEATS = [
  { id: 'oa-1', provider: 'openai', faultScale: 4, rateLimitScale: 0.5 },
  { id: 'oa-2', provider: 'openai', faultScale: 0.33 },
  { id: 'oa-3', provider: 'openai', faultScale: 0.33 },
  { id: 'oa-4', provider: 'openai', faultScale: 0.33 },
  { id: 'an-1', provider: 'anthropic', faultScale: 4, rateLimitScale: 0.5 },
  { id: 'an-2', provider: 'anthropic', faultScale: 0.33 },
  { id: 'an-3', provider: 'anthropic', faultScale: 0.33 },
];
const ROUTES = [
  { model: 'gpt', chain: ['oa-1', 'oa-2', 'oa-3', 'oa-4'] },
  { model: 'gpt-short', chain: ['oa-3', 'oa-1'] },
  { model: 'claude', chain: ['an-1', 'an-2', 'an-3'] },
];

async function main() {
  const opts = parseOptions(process.argv.slice(2));
  for (const built of ['packages/daemon/dist/index.js', 'packages/shared/dist/index.js']) {
    if (!existsSync(join(root, built))) throw new Error(`${built} is missing: run \`pnpm build\` first`);
  }
  const random = createRandom(opts.seed);
  const temp = mkdtempSync(join(tmpdir(), 'routeplane-soak-'));
  const arrivals = createArrivals();
  const seats = await startSeats(SEATS, random, (id) => arrivals.notify(id));
  let daemon = null;
  try {
    const env = { PATH: process.env.PATH ?? '', HOME: temp };
    const keys = [];
    const config = {
      server: { listen: '127.0.0.1:0' },
      control: { socket: join(temp, 'control.sock') },
      decision_log: { path: join(temp, 'decisions.ndjson'), max_mb: 1024 },
      timeouts: { connect_ms: 2_000, first_byte_ms: 2_000, idle_ms: 2_000 },
      influence: { enabled: true, cooldown_secs: 2, max_cooldown_secs: 10, trip_threshold: 3, window_secs: 30 },
      seats: seats.seats.map((seat) => {
        const envName = `SOAK_KEY_${seat.id.replace(/-/g, '_').toUpperCase()}`;
        env[envName] = `sk-soak-${seat.id}-${randomUUID()}`;
        keys.push(env[envName]);
        return { id: seat.id, provider: seat.provider, base_url: seat.url, api_key_env: envName };
      }),
      routes: ROUTES.map((r) => ({ model: r.model, chain: r.chain.map((seat) => ({ seat, model: `${seat}-model` })) })),
    };
    // The config lives in a file (JSON is YAML), as `routeplane serve` reads it; every 10 s the soak
    // edits it — the short route's chain flips order, and back — and sends SIGHUP.
    const configPath = join(temp, 'routeplane.yaml');
    const writeConfig = (flipped) => {
      const routes = config.routes.map((r) => (flipped && r.model === 'gpt-short' ? { ...r, chain: [...r.chain].reverse() } : r));
      writeFileSync(configPath, JSON.stringify({ ...config, routes }, null, 2));
    };
    writeConfig(false);
    daemon = await startDaemonChild(configPath, env);
    log(`daemon ${daemon.url} (pid ${daemon.pid}), ${opts.agents} agents for ${opts.durationSec} s, seed ${opts.seed}`);
    const events = await subscribeCounting(daemon.socketPath);

    const tally = createTally();
    const loadStart = Date.now();
    const loadEnd = loadStart + opts.durationSec * 1000;
    const progress = setInterval(() => {
      const m = daemon.memory.at(-1) ?? { rss: 0, heapUsed: 0 };
      const mib = (bytes) => (bytes / 1024 / 1024).toFixed(1);
      log(
        `${Math.round((Date.now() - loadStart) / 1000)} s: sent ${tally.sent}, answered ${tally.settled}, in flight ${tally.inFlight}, daemon RSS ${mib(m.rss)} MB (heap ${mib(m.heapUsed)} MB)`,
      );
    }, 10_000);
    // the two compared RSS figures, both under full load: once warm, and as the load ends
    const measured = {};
    const measureAt = async (label, at) => {
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, at - Date.now())));
      const m = await daemon.measure(label);
      if (m !== null) measured[label] = m;
    };
    const measuring = Promise.all([measureAt('warm', loadStart + opts.warmupSec * 1000), measureAt('end', loadEnd - 250)]);
    const reloads = { sent: 0 };
    const reloader = setInterval(() => {
      if (Date.now() > loadEnd - 1000) return;
      reloads.sent++;
      writeConfig(reloads.sent % 2 === 1);
      daemon.hangUp();
    }, 10_000);
    await runAgents({ baseUrl: daemon.url, agents: opts.agents, untilMs: loadEnd, random, tally, arrivals });
    await measuring;
    clearInterval(progress);
    clearInterval(reloader);
    log(`load over after ${((Date.now() - loadStart) / 1000).toFixed(1)} s; checking the daemon at rest`);

    // At rest: every agent request has ended and (once its decision is out) every attempt too, so
    // nothing may hold a probe claim or an upstream request. A cancelled upstream request's socket
    // closes a moment after its decision: a few seconds are allowed for that, then it counts.
    await events.decisions(tally.sent, 10_000);
    const snapshot = await command(daemon.socketPath, 'snapshot');
    await seats.waitFor(() => seats.busySockets() === 0, 5_000);
    const busyAtRest = seats.busySockets();
    const openAtRest = seats.openSockets();
    const waitStart = Date.now();
    // idle keep-alive connections are the daemon's to close (undici's idle timeout, 4 s by default)
    await seats.waitFor(() => seats.openSockets() === 0, 30_000);
    const openAtEnd = seats.openSockets();
    const closeWaitMs = Date.now() - waitStart;
    events.close();
    const daemonExit = await daemon.stop();

    const logText = ['decisions.ndjson.1', 'decisions.ndjson']
      .map((f) => join(temp, f))
      .filter((p) => existsSync(p))
      .map((p) => readFileSync(p, 'utf8'))
      .join('');
    const decisionLines = logText
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l));
    const output = daemon.output();
    const secretLeaks = keys.filter((k) => output.includes(k) || logText.includes(k)).length;

    const figures = {
      opts,
      tally,
      decisions: decisionFigures(decisionLines, tally.requestIds),
      counters: snapshot.counters,
      events: events.counts,
      upstream: { requests: seats.totalRequests(), connections: seats.totalConnections(), faults: seats.faultCounts() },
      sockets: { busyAtRest, openAtRest, openAtEnd, closeWaitMs },
      probes: probeFigures(snapshot),
      rss: rssFigures(measured, daemon.memory),
      daemonExit,
      secretLeaks,
      reloads,
    };
    const checks = invariants(figures);
    process.stdout.write(`${renderReport(figures, checks)}\n`);
    const unexpected = output
      .split('\n')
      .filter((l) => l.trim() !== '' && !l.startsWith('reloaded '))
      .join('\n');
    if (unexpected !== '') log(`daemon output:\n${unexpected}`);
    return checks.every((c) => c.ok) ? 0 : 1;
  } finally {
    daemon?.kill();
    await seats.close();
    rmSync(temp, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (err) => {
    log(err instanceof Error ? err.message : String(err));
    process.exit(2);
  },
);
