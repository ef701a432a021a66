// `--ab commit:REV`: the daemon as it was at a commit, built beside the
// current one, so a change can be measured against an older round on the
// same machine at the same moment (ratios to the bare proxy move with the
// machine; bench/NOTES.md). The commit's packages/shared and packages/daemon
// are compiled from `git archive` in a temporary directory with this
// checkout's dependencies, and the build lands in packages/daemon/dist-SHA —
// inside the daemon package, so its imports of fastify and undici resolve as
// the current build's do — with the commit's own shared build under
// `_shared`, which its `@routeplane/shared` imports are pointed at.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';

/** Builds REV's daemon once (a build already there is reused); returns its short SHA and directory. */
export function buildCommit(root, rev) {
  const sha = git(root, ['rev-parse', '--short', `${rev}^{commit}`]).trim();
  const dist = join(root, 'packages/daemon', `dist-${sha}`);
  if (existsSync(join(dist, 'index.js'))) return { sha, dist };
  const src = mkdtempSync(join(tmpdir(), `routeplane-${sha}-`));
  try {
    const archive = execFileSync('git', ['archive', sha, 'tsconfig.base.json', 'packages/shared', 'packages/daemon'], {
      cwd: root,
      maxBuffer: 256 * 2 ** 20,
    });
    execFileSync('tar', ['-x', '-C', src], { input: archive });
    linkDependencies(root, src);
    try {
      execFileSync(join(root, 'node_modules/.bin/tsc'), ['-b', 'packages/daemon'], { cwd: src, stdio: 'pipe' });
    } catch {
      // a commit in the middle of a change can have type errors; tsc still emits, and the check below decides
    }
    if (!existsSync(join(src, 'packages/daemon/dist/index.js'))) throw new Error(`bench: commit ${sha} did not build a daemon`);
    cpSync(join(src, 'packages/daemon/dist'), dist, { recursive: true });
    cpSync(join(src, 'packages/shared/dist'), join(dist, '_shared'), { recursive: true });
    // the shared build's own dependencies (zod, yaml) resolve from the build's directory
    mkdirSync(join(dist, 'node_modules'));
    for (const name of readdirSync(join(root, 'packages/shared/node_modules')))
      symlinkSync(join(root, 'packages/shared/node_modules', name), join(dist, 'node_modules', name));
    pointSharedImports(dist);
    return { sha, dist };
  } catch (err) {
    rmSync(dist, { recursive: true, force: true });
    throw err;
  } finally {
    rmSync(src, { recursive: true, force: true });
  }
}

function git(root, args) {
  try {
    return execFileSync('git', args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (err) {
    throw new Error(`bench: git ${args.join(' ')}: ${String(err.stderr ?? err.message).trim()}`);
  }
}

/** This checkout's node_modules for the archived packages, except the daemon's @routeplane/shared: the commit's own. */
function linkDependencies(root, src) {
  symlinkSync(join(root, 'node_modules'), join(src, 'node_modules'));
  symlinkSync(join(root, 'packages/shared/node_modules'), join(src, 'packages/shared/node_modules'));
  const daemonModules = join(src, 'packages/daemon/node_modules');
  mkdirSync(join(daemonModules, '@routeplane'), { recursive: true });
  for (const name of readdirSync(join(root, 'packages/daemon/node_modules'))) {
    if (name !== '@routeplane') symlinkSync(join(root, 'packages/daemon/node_modules', name), join(daemonModules, name));
  }
  symlinkSync(join(src, 'packages/shared'), join(daemonModules, '@routeplane/shared'));
}

/** Every `@routeplane/shared` import of the built daemon, pointed at the commit's shared build beside it. */
function pointSharedImports(dist) {
  const shared = join(dist, '_shared', 'index.js');
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== '_shared' && entry.name !== 'node_modules') walk(path);
      } else if (entry.name.endsWith('.js')) {
        const text = readFileSync(path, 'utf8');
        if (!text.includes('@routeplane/shared')) continue;
        let to = relative(dirname(path), shared);
        if (!to.startsWith('.')) to = `./${to}`;
        writeFileSync(path, text.replaceAll("'@routeplane/shared'", `'${to}'`).replaceAll('"@routeplane/shared"', `"${to}"`));
      }
    }
  };
  walk(dist);
}
