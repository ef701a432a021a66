// Reads the .cpuprofile files written by `node --cpu-prof` and says where the
// time went: self time by function, self time by module (our files, fastify,
// undici, node internals, GC), and inclusive time of the daemon's own functions.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** A readable place for a profile URL: our dist files name their source file. */
function placeOf(url, root) {
  if (!url) return '';
  let path = url.replace(/^file:\/\//, '');
  if (path.startsWith(root + '/')) path = path.slice(root.length + 1);
  const pkg = /node_modules\/\.pnpm\/[^/]+\/node_modules\/((?:@[^/]+\/)?[^/]+)\/(.*)$/.exec(path);
  if (pkg) return `${pkg[1]}/${pkg[2]}`;
  return path.replace(/^packages\/(\w+)\/dist\/(.*)\.js$/, 'packages/$1/src/$2.ts');
}

function moduleOf(place, functionName) {
  if (!place) return functionName.startsWith('(') ? functionName : '(native)';
  if (place.startsWith('packages/')) return place;
  if (place.startsWith('node:')) return 'node internals';
  const pkg = /^((?:@[^/]+\/)?[^/]+)\//.exec(place);
  return pkg ? pkg[1] : place;
}

/** `requests`: how many requests the profiled time served, to show each figure as µs per request too. */
export function summariseProfiles(dir, root, { top = 35, requests = null } = {}) {
  const files = readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'));
  if (files.length === 0) return `no .cpuprofile in ${dir}\n`;
  const selfByFn = new Map();
  const selfByModule = new Map();
  const inclusiveByFn = new Map();
  /** for native/internal self time: who asked for it (nearest frame of ours or of a package) */
  const askedBy = new Map();
  let total = 0;
  for (const file of files) {
    const prof = JSON.parse(readFileSync(join(dir, file), 'utf8'));
    const byId = new Map(prof.nodes.map((n) => [n.id, n]));
    const parent = new Map();
    for (const n of prof.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
    const selfUs = new Map();
    for (let i = 0; i < prof.samples.length; i++) {
      const dt = prof.timeDeltas[i] ?? 0;
      selfUs.set(prof.samples[i], (selfUs.get(prof.samples[i]) ?? 0) + dt);
    }
    for (const [id, us] of selfUs) {
      const node = byId.get(id);
      const name = node.callFrame.functionName || '(anonymous)';
      if (name === '(idle)') continue;
      total += us;
      const place = placeOf(node.callFrame.url, root);
      const key = place ? `${place}:${name} (line ${node.callFrame.lineNumber + 1})` : name;
      selfByFn.set(key, (selfByFn.get(key) ?? 0) + us);
      const mod = moduleOf(place, name);
      selfByModule.set(mod, (selfByModule.get(mod) ?? 0) + us);
      if ((place === '' || place.startsWith('node:')) && !name.startsWith('(')) {
        let asker = '(event loop)';
        for (let at = parent.get(id); at !== undefined; at = parent.get(at)) {
          const n = byId.get(at);
          const p = placeOf(n.callFrame.url, root);
          if (p && !p.startsWith('node:')) {
            asker = `${p}:${n.callFrame.functionName || '(anonymous)'}`;
            break;
          }
        }
        const m = askedBy.get(key) ?? new Map();
        m.set(asker, (m.get(asker) ?? 0) + us);
        askedBy.set(key, m);
      }
      // Inclusive time of our own functions: walk up once per distinct function.
      const seen = new Set();
      for (let at = id; at !== undefined; at = parent.get(at)) {
        const n = byId.get(at);
        const p = placeOf(n.callFrame.url, root);
        if (!p.startsWith('packages/')) continue;
        const k = `${p}:${n.callFrame.functionName || '(anonymous)'}`;
        if (seen.has(k)) continue;
        seen.add(k);
        inclusiveByFn.set(k, (inclusiveByFn.get(k) ?? 0) + us);
      }
    }
  }
  const pct = (us) =>
    `${((us / total) * 100).toFixed(1).padStart(5)}%${requests ? ` ${(us / requests).toFixed(1).padStart(7)} µs/req` : ''}`;
  const rank = (m, n) => [...m.entries()].sort((a, b) => b[1] - a[1]).slice(0, n);
  const perRequest = requests ? `, ${requests} requests: ${(total / requests).toFixed(0)} µs each` : '';
  const lines = [`## CPU profile (${files.length} file(s), ${(total / 1e6).toFixed(1)} s of non-idle samples${perRequest})`, ''];
  lines.push('### Self time by module', '', ...rank(selfByModule, 20).map(([k, us]) => `${pct(us)}  ${k}`), '');
  lines.push('### Self time by function', '', ...rank(selfByFn, top).map(([k, us]) => `${pct(us)}  ${k}`), '');
  lines.push('### Who asked for the top native and node-internal time', '');
  for (const [fn, us] of rank(selfByFn, top)) {
    const m = askedBy.get(fn);
    if (!m || us / total < 0.01) continue;
    lines.push(`${pct(us)}  ${fn}`, ...rank(m, 4).map(([k, v]) => `          ${pct(v)}  ← ${k}`));
  }
  lines.push('');
  lines.push("### Inclusive time of the daemon's own functions", '', ...rank(inclusiveByFn, top).map(([k, us]) => `${pct(us)}  ${k}`), '');
  return lines.join('\n');
}

/** A sampling heap profile (`--allocations`): bytes allocated per request, by the function that allocated them. */
export function summariseAllocations(file, root, requests) {
  const profile = JSON.parse(readFileSync(file, 'utf8'));
  const byFn = new Map();
  const byModule = new Map();
  let total = 0;
  const walk = (node) => {
    const { url, functionName, lineNumber } = node.callFrame;
    const place = placeOf(url, root);
    const name = functionName || '(anonymous)';
    const key = place ? `${place}:${name} (line ${lineNumber + 1})` : name;
    total += node.selfSize;
    byFn.set(key, (byFn.get(key) ?? 0) + node.selfSize);
    const mod = moduleOf(place, name);
    byModule.set(mod, (byModule.get(mod) ?? 0) + node.selfSize);
    for (const child of node.children) walk(child);
  };
  walk(profile.head);
  const perRequest = (bytes) => `${(bytes / requests).toFixed(0).padStart(7)} B/req`;
  const rank = (m, n) => [...m.entries()].sort((a, b) => b[1] - a[1]).slice(0, n);
  return [
    `## Allocations (sampled, ${(total / 2 ** 20).toFixed(1)} MB over ${requests} requests: ${(total / requests / 1024).toFixed(1)} KB each)`,
    '',
    '### By module',
    '',
    ...rank(byModule, 15).map(([k, v]) => `${perRequest(v)}  ${k}`),
    '',
    '### By function',
    '',
    ...rank(byFn, 40).map(([k, v]) => `${perRequest(v)}  ${k}`),
    '',
  ].join('\n');
}
