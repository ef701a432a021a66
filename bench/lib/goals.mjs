// The Goals, computed from one run's figures. Pure: results in,
// checklist out. `ok: null` means the figure was not measured in this run.
// Goals 1–7 are the first speed issue's; 8 on are what later issues ask of
// `pnpm bench` (goals-agents.mjs, goals-costs.mjs).
import { check, f1, f2, int, matrixCell, medianCell, ratioPart } from './goal-parts.mjs';
import { agentGoals } from './goals-agents.mjs';
import { costGoals } from './goals-costs.mjs';

export function computeGoals(results) {
  const { cells, firstChunk, eventPath, micro, monitor } = results;
  const goals = [];
  const get = (q) => medianCell(cells, q);

  // 1. Non-streaming 2 KB at c=16 and c=64: req/s ≥ 0.7× bare; CPU/request ≤ 1.6× bare.
  const g1 = [];
  for (const c of [16, 64]) {
    const d = get({ stream: false, kb: 2, c, through: 'daemon' });
    const b = get({ stream: false, kb: 2, c, through: 'bare' });
    g1.push(ratioPart(`c=${c} req/s`, d?.rps, b?.rps, '>=', 0.7, int));
    g1.push(ratioPart(`c=${c} CPU µs/req`, d?.cpuUsPerReq, b?.cpuUsPerReq, '<=', 1.6, int));
  }
  goals.push(check(1, 'Non-streaming 2 KB, c=16 and c=64: daemon req/s ≥ 0.7× bare proxy, CPU per request ≤ 1.6× bare proxy', g1));

  // 2. Streaming: added p50 ≤ 1 ms at c=16; first chunk ≤ direct + 1 ms at c=1; p99 at c=256 ≤ 2× bare.
  const g2 = [];
  {
    const d = get({ stream: true, kb: 2, c: 16, through: 'daemon' });
    const dir = get({ stream: true, kb: 2, c: 16, through: 'direct' });
    if (d && dir) {
      const added = d.p50Ms - dir.p50Ms;
      g2.push({ ok: added <= 1, detail: `added p50 at c=16: ${f2(added)} ms (${f2(d.p50Ms)} − ${f2(dir.p50Ms)}; ≤ 1 ms)` });
    } else g2.push({ ok: null, detail: 'added p50 at c=16: not measured' });
  }
  if (firstChunk?.daemon && firstChunk?.direct) {
    const added = firstChunk.daemon.firstChunkP50 - firstChunk.direct.firstChunkP50;
    g2.push({
      ok: added <= 1,
      detail: `first chunk at c=1: ${f2(firstChunk.daemon.firstChunkP50)} ms vs direct ${f2(firstChunk.direct.firstChunkP50)} ms = +${f2(added)} ms (≤ +1 ms)`,
    });
  } else g2.push({ ok: null, detail: 'first chunk at c=1: not measured' });
  for (const kb of [2, 200]) {
    const d = get({ stream: true, kb, c: 256, through: 'daemon' });
    const b = get({ stream: true, kb, c: 256, through: 'bare' });
    g2.push(ratioPart(`p99 at c=256 ${kb} KB`, d?.p99Ms, b?.p99Ms, '<=', 2, (x) => `${f1(x)} ms`));
  }
  goals.push(check(2, 'Streaming: added p50 ≤ 1 ms at c=16; time to first chunk ≤ direct + 1 ms at c=1; p99 at c=256 ≤ 2× bare proxy', g2));

  // 3. 200 KB bodies at c=16: req/s ≥ 0.6× bare.
  const g3 = [];
  for (const stream of [false, true]) {
    const d = get({ stream, kb: 200, c: 16, through: 'daemon' });
    const b = get({ stream, kb: 200, c: 16, through: 'bare' });
    g3.push(ratioPart(`${stream ? 'streaming' : 'non-streaming'} req/s`, d?.rps, b?.rps, '>=', 0.6, int));
  }
  goals.push(check(3, '200 KB bodies, c=16: daemon req/s ≥ 0.6× bare proxy', g3));

  // 4. Peak RSS ≤ 150 MB at c=256 streaming.
  const g4 = [];
  for (const kb of [2, 200]) {
    const d = matrixCell(cells, { stream: true, kb, c: 256, through: 'daemon' });
    if (d?.peakRssMB == null) g4.push({ ok: null, detail: `${kb} KB: not measured` });
    else g4.push({ ok: d.peakRssMB <= 150, detail: `${kb} KB: ${f1(d.peakRssMB)} MB (≤ 150 MB)` });
  }
  goals.push(check(4, 'Daemon peak RSS ≤ 150 MB at c=256 streaming', g4));

  // 5. Micro: ordering ≤ 5 µs median; one decision event end to end ≤ 20 µs median.
  const g5 = [];
  const ordering = micro?.find((m) => m.name.startsWith('plan + finish, 10-target'));
  const decision = micro?.find((m) => m.name.includes('4 unix-socket subscribers'));
  g5.push(
    ordering
      ? { ok: ordering.medianUs <= 5, detail: `ordering 10 targets: ${f2(ordering.medianUs)} µs (≤ 5 µs)` }
      : { ok: null, detail: 'ordering: not measured' },
  );
  g5.push(
    decision
      ? { ok: decision.medianUs <= 20, detail: `decision event, 4 subscribers: ${f2(decision.medianUs)} µs (≤ 20 µs)` }
      : { ok: null, detail: 'decision event: not measured' },
  );
  goals.push(check(5, 'Ordering a 10-target chain ≤ 5 µs median; one decision event end to end ≤ 20 µs median', g5));

  // 6. 4 subscribers cost ≤ 5% req/s. On a shared machine req/s swings with the neighbours; CPU per
  // request (what bounds req/s on the proxy's saturated core) must say the same, or it does not pass.
  const g6text = '4 subscribers attached cost the proxy ≤ 5% req/s (and ≤ 5% CPU per request)';
  if (eventPath?.without && eventPath?.with4) {
    const cost = 1 - eventPath.with4.rps / eventPath.without.rps;
    const cpuCost = eventPath.with4.cpuUsPerReq / eventPath.without.cpuUsPerReq - 1;
    const sign = (x) => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)}%`;
    goals.push(
      check(6, g6text, [
        {
          ok: cost <= 0.05,
          detail: `req/s ${int(eventPath.with4.rps)} vs ${int(eventPath.without.rps)}: cost ${(cost * 100).toFixed(1)}%`,
        },
        {
          ok: cpuCost <= 0.05,
          detail: `CPU per request ${int(eventPath.with4.cpuUsPerReq)} vs ${int(eventPath.without.cpuUsPerReq)} µs: ${sign(cpuCost)}`,
        },
      ]),
    );
  } else goals.push(check(6, g6text, [{ ok: null, detail: 'not measured' }]));

  // 7. Monitor at 5,000 events/s.
  if (monitor?.status === 'measured') {
    goals.push(
      check(7, 'Monitor at 5,000 events/s: ≤ 20 renders/s, ≤ 50% of one core, heap flat', [
        {
          ok: monitor.rendersPerSec <= 20,
          detail: `${f1(monitor.rendersPerSec)} frames/s (≤ 20; ${f1(monitor.storeUpdatesPerSec)} store updates/s)`,
        },
        { ok: monitor.cpuPercent <= 50, detail: `${f1(monitor.cpuPercent)}% of one core (≤ 50%)` },
        {
          ok: monitor.heapFlat,
          detail: `heap ${f1(monitor.heapStartMB)} → ${f1(monitor.heapEndMB)} MB (${monitor.heapFlat ? 'flat' : 'growing'}; NODE_ENV ${monitor.nodeEnv})`,
        },
      ]),
    );
  } else
    goals.push(
      check(7, 'Monitor at 5,000 events/s: ≤ 20 renders/s, ≤ 50% of one core, heap flat', [
        { ok: null, detail: monitor?.note ?? 'not measured' },
      ]),
    );

  goals.push(...agentGoals(results), ...costGoals(results));
  return goals;
}
