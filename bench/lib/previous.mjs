// The previous run's figures, read back from the RESULTS.md it wrote (the
// tables report.mjs renders), so a run can say its figures side by side with
// the last ones: the proxy matrix, and the goal cells' rounds where there
// were several. Pure: text in, cells out; null when the text has no matrix.

const THROUGH = {
  'direct (mock)': 'direct',
  'bare node:http proxy': 'bare',
  'routeplane daemon': 'daemon',
};

const num = (s) => {
  const t = s.trim().replace(/,/g, '');
  return t === '' || t === '–' ? null : Number(t);
};
// rounds are listed ", "-separated; a figure's thousands separator has no space
const list = (s) => s.split(', ').map(num);

function section(text, title) {
  const at = text.indexOf(`\n## ${title}\n`);
  if (at === -1) return null;
  const rest = text.slice(at + title.length + 5);
  const next = rest.indexOf('\n## ');
  return next === -1 ? rest : rest.slice(0, next);
}

const cellsOf = (block) =>
  (block ?? '')
    .split('\n')
    .filter((l) => l.startsWith('| ') && !l.startsWith('| family |') && !l.startsWith('| body |'))
    .map((l) => l.slice(2, -2).split(' | '));

/** @returns {{startedAt: string|null, load: string|null, cells: object[]} | null} */
export function readPreviousResults(text) {
  const matrix = section(text, 'Proxy matrix');
  if (matrix === null) return null;
  const cells = [];
  for (const f of cellsOf(matrix)) {
    const through = THROUGH[f[4]?.replace(/ ⚠.*$/, '')];
    if (through === undefined) continue;
    cells.push({
      family: f[0],
      kb: Number.parseInt(f[1], 10),
      stream: f[2] === 'SSE',
      c: Number(f[3]),
      through,
      round: 0,
      rps: num(f[5]),
      p50Ms: num(f[7]),
      p99Ms: num(f[8]),
      cpuUsPerReq: num(f[10]),
      peakRssMB: num(f[11]),
    });
  }
  // the goal cells' rounds replace their matrix cell (the first round is that cell)
  for (const row of cellsOf(section(text, 'Goal cells by round'))) {
    // older runs had no family column (all openai)
    const [family, f] = row.length === 9 ? [row[0], row.slice(1)] : ['openai', row];
    const through = THROUGH[f[3]];
    if (through === undefined) continue;
    const key = { family, kb: Number.parseInt(f[0], 10), stream: f[1] === 'SSE', c: Number(f[2]), through };
    const [rps, cpu, p50, p99] = [list(f[4]), list(f[5]), list(f[6]), list(f[7])];
    const same = (x) => x.family === key.family && x.kb === key.kb && x.stream === key.stream && x.c === key.c && x.through === key.through;
    const peak = cells.find(same)?.peakRssMB ?? null;
    for (let i = cells.length - 1; i >= 0; i--) if (same(cells[i])) cells.splice(i, 1);
    for (let round = 0; round < rps.length; round++) {
      cells.push({
        ...key,
        round,
        rps: rps[round],
        cpuUsPerReq: cpu[round],
        p50Ms: p50[round],
        p99Ms: p99[round],
        peakRssMB: round === 0 ? peak : null,
      });
    }
  }
  const startedAt = /on (\d{4}-\d\d-\d\dT[\d:.]+Z)/.exec(text)?.[1] ?? null;
  const load = /Load average at start ([\d. ]+), at end ([\d. ]+)\./.exec(text);
  return { startedAt, load: load ? `${load[1]} → ${load[2]}` : null, cells };
}
