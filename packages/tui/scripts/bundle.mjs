#!/usr/bin/env node
// Bundles the CLI into dist/cli.js (+ dist/chunks/) for `pnpm build` and for packing.
//
// The workspace packages @routeplane/shared and @routeplane/daemon are private: an installed
// `routeplane` could never fetch them, so they are compiled into the bundle from their sources.
// Every third-party package stays an import, installed as a real dependency of the CLI package;
// the bundle refuses to build when it imports one that package.json does not declare.
import { rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { builtinModules } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const manifest = JSON.parse(await readFile(join(packageDir, 'package.json'), 'utf8'));
const declared = new Set(Object.keys(manifest.dependencies ?? {}));
const workspaceManifests = await Promise.all(
  ['shared', 'daemon'].map(async (name) => JSON.parse(await readFile(join(packageDir, '..', name, 'package.json'), 'utf8'))),
);
const builtins = new Set(builtinModules);

/** `@scope/name/sub` → `@scope/name`, `name/sub` → `name` */
function packageName(specifier) {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

const undeclared = new Map();
const thirdPartyStaysExternal = {
  name: 'third-party-stays-external',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('node:') || builtins.has(args.path)) return { external: true };
      const name = packageName(args.path);
      if (name.startsWith('@routeplane/')) return undefined; // compiled in from source
      if (!declared.has(name)) undeclared.set(name, args.importer);
      return { external: true };
    });
  },
};

const outdir = join(packageDir, 'dist');
// chunk names carry a content hash: drop the last build's so none go stale
rmSync(join(outdir, 'chunks'), { recursive: true, force: true });

const result = await esbuild.build({
  absWorkingDir: packageDir,
  entryPoints: { cli: 'src/cli.ts' },
  outdir,
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  // `top` and `demo` load Ink, React and the daemon on demand; keep them in chunks of their own
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  conditions: ['@routeplane/source'],
  jsx: 'automatic',
  plugins: [thirdPartyStaysExternal],
  logLevel: 'warning',
  metafile: true,
});

if (undeclared.size > 0) {
  for (const [name, importer] of undeclared) {
    console.error(`bundle: ${name} (imported by ${importer}) is not in the dependencies of ${manifest.name}/package.json`);
  }
  process.exit(1);
}
// a dependency of a bundled workspace package must be installed at the version that package asks for
let mismatched = false;
for (const workspace of workspaceManifests) {
  for (const [name, range] of Object.entries(workspace.dependencies ?? {})) {
    if (name.startsWith('@routeplane/') || manifest.dependencies[name] === range) continue;
    console.error(
      `bundle: ${workspace.name} asks for ${name}@${range}, ${manifest.name} declares ${manifest.dependencies[name] ?? 'nothing'}`,
    );
    mismatched = true;
  }
}
if (mismatched) process.exit(1);

const outputs = Object.keys(result.metafile.outputs).length;
console.log(`bundle: dist/cli.js and ${outputs - 1} chunk(s)`);
