// Goals 8–10, "Speed on the bodies agents really send": the Claude-Code-shaped
// cell against the bare proxy (throughput, CPU, tail, memory), and the 2 KB
// cells holding their ratios meanwhile. Pure: results in, checks out.
import { check, f1, int, matrixCell, medianCell, ratioPart } from './goal-parts.mjs';

const CLAUDE_CODE_KB = 110;
/** 40 MB on top of the bare proxy and the bodies in flight (the allowance) */
const RSS_ALLOWANCE_MB = 40;

export function agentGoals({ cells }) {
  const goals = [];
  const cc = (c, through) => medianCell(cells, { family: 'claude-code', stream: true, kb: CLAUDE_CODE_KB, c, through });

  // 8. Claude Code's shape: c=16 req/s ≥ 0.85× bare and CPU ≤ 1.3× bare; c=256 p99 ≤ 1.5× bare.
  {
    const d16 = cc(16, 'daemon');
    const b16 = cc(16, 'bare');
    const d256 = cc(256, 'daemon');
    const b256 = cc(256, 'bare');
    goals.push(
      check(
        8,
        `Claude-Code-shaped requests (${CLAUDE_CODE_KB} KB body, ~200 SSE events back): c=16 daemon req/s ≥ 0.85× bare proxy and CPU per request ≤ 1.3× bare; c=256 p99 ≤ 1.5× bare`,
        [
          ratioPart('c=16 req/s', d16?.rps, b16?.rps, '>=', 0.85, int),
          ratioPart('c=16 CPU µs/req', d16?.cpuUsPerReq, b16?.cpuUsPerReq, '<=', 1.3, int),
          ratioPart('c=256 p99', d256?.p99Ms, b256?.p99Ms, '<=', 1.5, (x) => `${f1(x)} ms`),
        ],
      ),
    );
  }

  // 9. Peak RSS at c=256 ≤ the bare proxy's + the bodies in flight + 40 MB (the matrix's own cell, as goal 4).
  {
    const text = `Peak RSS in the Claude Code cell at c=256 ≤ bare proxy's + bodies in flight (256 × ${CLAUDE_CODE_KB} KB) + ${RSS_ALLOWANCE_MB} MB, no run-time V8 flags`;
    const d = matrixCell(cells, { family: 'claude-code', stream: true, kb: CLAUDE_CODE_KB, c: 256, through: 'daemon' });
    const b = matrixCell(cells, { family: 'claude-code', stream: true, kb: CLAUDE_CODE_KB, c: 256, through: 'bare' });
    if (d?.peakRssMB == null || b?.peakRssMB == null) goals.push(check(9, text, [{ ok: null, detail: 'not measured' }]));
    else {
      const inFlight = (256 * CLAUDE_CODE_KB) / 1024;
      const bound = b.peakRssMB + inFlight + RSS_ALLOWANCE_MB;
      goals.push(
        check(9, text, [
          {
            ok: d.peakRssMB <= bound,
            detail: `${f1(d.peakRssMB)} MB vs ${f1(b.peakRssMB)} + ${f1(inFlight)} + ${RSS_ALLOWANCE_MB} = ${f1(bound)} MB (${d.peakRssMB <= bound ? 'under' : 'over'} by ${f1(Math.abs(bound - d.peakRssMB))} MB)`,
          },
        ]),
      );
    }
  }

  // 10. The 2 KB goal cells hold their ratios: req/s ≥ 0.75× bare, CPU ≤ 1.3× bare.
  {
    const parts = [];
    for (const [stream, c] of [
      [false, 16],
      [false, 64],
      [true, 16],
    ]) {
      const d = medianCell(cells, { stream, kb: 2, c, through: 'daemon' });
      const b = medianCell(cells, { stream, kb: 2, c, through: 'bare' });
      const label = `${stream ? 'SSE' : 'JSON'} c=${c}`;
      parts.push(
        ratioPart(`${label} req/s`, d?.rps, b?.rps, '>=', 0.75, int),
        ratioPart(`${label} CPU`, d?.cpuUsPerReq, b?.cpuUsPerReq, '<=', 1.3, int),
      );
    }
    goals.push(check(10, '2 KB cells hold their ratios: daemon req/s ≥ 0.75× bare proxy, CPU per request ≤ 1.3× bare', parts));
  }
  return goals;
}
