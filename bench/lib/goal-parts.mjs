// What every goal check is built from: reading a cell (its matrix round, or
// the median of its rounds), formatting, and a check made of parts. Pure.
export const sameCell = (x, q) =>
  x.family === (q.family ?? 'openai') && x.stream === q.stream && x.kb === q.kb && x.c === q.c && x.through === q.through;

/** The matrix's own cell (round 0): goal 4 reads it, since the daemon's RSS carries what earlier cells grew. */
export const matrixCell = (cells, q) => cells.find((x) => sameCell(x, q) && !x.round) ?? null;

export const median = (xs) => {
  const s = xs.filter((x) => typeof x === 'number' && !Number.isNaN(x)).sort((a, b) => a - b);
  if (s.length === 0) return null;
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/** Every round of one cell, as one cell of medians (goals 1–3); null when it was not measured. */
export function medianCell(cells, q) {
  const rounds = cells.filter((x) => sameCell(x, q));
  if (rounds.length === 0) return null;
  const of = (key) => median(rounds.map((x) => x[key]));
  return { rounds: rounds.length, rps: of('rps'), p50Ms: of('p50Ms'), p99Ms: of('p99Ms'), cpuUsPerReq: of('cpuUsPerReq') };
}

export const f1 = (x) => (x === null || x === undefined ? '–' : x.toFixed(1));
export const f2 = (x) => (x === null || x === undefined ? '–' : x.toFixed(2));
export const int = (x) => (x === null || x === undefined ? '–' : Math.round(x).toLocaleString('en-US'));

/** One check: all `parts` must hold; a missing figure makes the check unmeasured. */
export function check(id, text, parts) {
  const measured = parts.every((p) => p.ok !== null);
  return { id, text, ok: measured ? parts.every((p) => p.ok) : null, detail: parts.map((p) => p.detail).join('; ') };
}

export function ratioPart(label, num, den, op, bound, fmt) {
  if (!num || !den) return { ok: null, detail: `${label}: not measured` };
  const ratio = num / den;
  const ok = op === '>=' ? ratio >= bound : ratio <= bound;
  return { ok, detail: `${label}: ${fmt(num)} vs ${fmt(den)} = ${ratio.toFixed(2)}× (${op} ${bound}×)` };
}
