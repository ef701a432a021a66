/**
 * The install paths a new user takes, end to end on fresh clones, each with
 * the README's own command read from its code block:
 * - "Try it" as root whose npm already has pnpm 10: the demo runs, and no
 *   other pnpm is fetched;
 * - "Run the tests" as an ordinary user with an empty home on a machine
 *   whose npm has no pnpm: pnpm comes through npx, and the tests pass;
 * - the PATH command, with npm's global prefix in a directory of the user's
 *   own, and the packed CLI installed alone into an empty prefix, where the
 *   demo must run and npm must not warn about an engine.
 * They use the package registry like the commands they test. The root runs
 * use npm's and pnpm's usual caches, so a second run downloads little; the
 * ordinary user's home starts empty, so its run downloads everything once.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ordinaryUser } from './ordinary-user.js';
import { mustRun, personEnv, shell, type ShellResult } from './shell.js';

const REPO_ROOT = resolve(fileURLToPath(import.meta.url), '../../../../..');
const MINUTES = 60_000;

/** The one-line ```sh block right after a README heading (and its first paragraph, if any). */
function readmeCommand(readme: string, heading: string): string {
  const at = readme.indexOf(`\n## ${heading}\n`);
  const command = at === -1 ? undefined : /```sh\n([^\n]+)\n```/.exec(readme.slice(at))?.[1];
  if (command === undefined) throw new Error(`README has no sh command under "## ${heading}"`);
  return command;
}

/** `npx pnpm@10 …`, with the installed pnpm found or fetched into npm's cache: where that cache keeps them. */
function npxPnpms(npmCache: string): string[] {
  const npx = join(npmCache, '_npx');
  if (!existsSync(npx)) return [];
  return readdirSync(npx)
    .map((entry) => join(npx, entry, 'node_modules', 'pnpm'))
    .filter((dir) => existsSync(dir));
}

const work = mkdtempSync(join(tmpdir(), 'rp-install-'));
const clone = join(work, 'clone');
const elsewhere = join(work, 'elsewhere');
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A shell whose npm installs "globally" into `prefix`, whose bin comes first on PATH. */
function userEnv(prefix: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const path = [join(prefix, 'bin'), dirname(process.execPath), process.env.PATH ?? ''].join(delimiter);
  return personEnv({ npm_config_prefix: prefix, PATH: path, CI: 'true', ...extra });
}

let readme = '';
const userPrefix = join(work, 'user-prefix');
/** npm's cache for the "Try it" run: empty before it, so a pnpm that npx fetched would be seen */
const tryItCache = join(work, 'npm-cache');
let tryIt: ShellResult;
let prefixPnpmBefore = 0;

beforeAll(async () => {
  mkdirSync(elsewhere);
  await mustRun(`git clone --quiet ${JSON.stringify(REPO_ROOT)} ${JSON.stringify(clone)}`, work, personEnv({}), 2 * MINUTES);
  readme = readFileSync(join(clone, 'README.md'), 'utf8');
  // a machine where pnpm 10 is there already: npm's global prefix has it
  await mustRun('npm install -g --silent pnpm@10', work, userEnv(userPrefix, { npm_config_cache: tryItCache }), 3 * MINUTES);
  prefixPnpmBefore = statSync(join(userPrefix, 'lib/node_modules/pnpm/package.json')).mtimeMs;
  rmSync(join(tryItCache, '_npx'), { recursive: true, force: true });

  // the README's first command, its demo shown as a log for a few seconds (it opens a screen otherwise)
  const command = readmeCommand(readme, 'Try it (no keys needed)');
  expect(command).toMatch(/ routeplane demo$/);
  tryIt = await mustRun(`${command} --no-top --duration 5`, clone, userEnv(userPrefix, { npm_config_cache: tryItCache }), 8 * MINUTES);
}, 12 * MINUTES);

describe('installing routeplane as a new user does', () => {
  it("the README's first command installs, builds and plays the demo, with the pnpm 10 that is there", () => {
    const summary = /^summary: (\d+) requests sent, (\d+) responses received/m.exec(tryIt.stdout);
    expect(summary, tryIt.stdout.slice(-2000)).not.toBeNull();
    expect(Number(summary![1])).toBeGreaterThan(0);
    // not reinstalled, and no second copy fetched beside it
    expect(statSync(join(userPrefix, 'lib/node_modules/pnpm/package.json')).mtimeMs).toBe(prefixPnpmBefore);
    expect(npxPnpms(tryItCache)).toEqual([]);
  });

  it(
    "the README's PATH command puts routeplane on PATH; --version works from any directory",
    async () => {
      const command = readmeCommand(readme, 'Put `routeplane` on your PATH');
      await mustRun(command, clone, userEnv(userPrefix), 5 * MINUTES);
      const env = userEnv(userPrefix, { HOME: join(work, 'home-a') });

      const which = await mustRun('command -v routeplane', elsewhere, env, MINUTES);
      expect(which.stdout.trim()).toBe(join(userPrefix, 'bin', 'routeplane'));
      const version = await mustRun('routeplane --version', elsewhere, env, MINUTES);
      const { version: packageVersion } = JSON.parse(readFileSync(join(clone, 'packages/tui/package.json'), 'utf8')) as { version: string };
      expect(version.stdout).toBe(`${packageVersion}\n`);

      // the installed copy stands alone: the clone can go
      rmSync(join(clone, 'packages/tui/dist'), { recursive: true, force: true });
      const init = await shell(
        'routeplane config init --path rp.yaml && routeplane config check --config rp.yaml',
        elsewhere,
        env,
        MINUTES,
      );
      expect(init.stdout).toContain(`wrote ${join(elsewhere, 'rp.yaml')}`);
      // the starter names key variables this shell does not have: check says which, in plain words
      expect(init.stderr).toContain('environment variable ANTHROPIC_KEY_WORK is not set');
      expect(init.code).toBe(2);
    },
    10 * MINUTES,
  );

  it(
    '`npm pack` of the CLI package makes one tarball that installs into an empty prefix without an engine warning and runs the demo',
    async () => {
      const packs = join(work, 'packs');
      mkdirSync(packs);
      await mustRun(
        `npm pack --silent --pack-destination ${JSON.stringify(packs)}`,
        join(clone, 'packages/tui'),
        userEnv(join(work, 'unused')),
        3 * MINUTES,
      );
      const tarballs = readdirSync(packs);
      expect(tarballs).toEqual([expect.stringMatching(/^routeplane-\d+\.\d+\.\d+\.tgz$/)]);

      const emptyPrefix = join(work, 'empty-prefix');
      const env = userEnv(emptyPrefix);
      const installed = await mustRun(`npm install -g ${JSON.stringify(join(packs, tarballs[0]!))}`, elsewhere, env, 5 * MINUTES);
      // on the Node the README states, every package of the tree fits
      expect(installed.stdout + installed.stderr).not.toMatch(/EBADENGINE|Unsupported engine/);
      const manifest = JSON.parse(readFileSync(join(emptyPrefix, 'lib/node_modules/routeplane/package.json'), 'utf8')) as Record<
        string,
        unknown
      >;
      expect(JSON.stringify(manifest.dependencies)).not.toContain('workspace:');
      expect(manifest).toMatchObject({
        bin: { routeplane: 'dist/cli.js' },
        engines: { node: expect.any(String) },
        license: expect.any(String),
      });

      const demo = await shell(
        'routeplane demo --no-top --duration 5',
        elsewhere,
        userEnv(emptyPrefix, { HOME: join(work, 'home-b') }),
        2 * MINUTES,
      );
      expect(demo.stderr).not.toMatch(/Error|cannot find/i);
      expect(demo.code).toBe(0);
      const summary = /^summary: (\d+) requests sent, (\d+) responses received/m.exec(demo.stdout);
      expect(summary, demo.stdout.slice(-2000)).not.toBeNull();
      expect(Number(summary![1])).toBeGreaterThan(0);
      expect(summary![2]).toBe(summary![1]);
    },
    10 * MINUTES,
  );
});

/**
 * Files of the suite the ordinary user's run is narrowed to (the README's command runs as
 * written, with these after its `pnpm test`): one of each package, among them the ones about
 * files and sockets only their owner may read, which a root run cannot tell apart.
 */
const USER_TEST_FILES = [
  'packages/shared/test/config.test.ts',
  'packages/daemon/test/control/socket-file.test.ts',
  'packages/daemon/test/state-file/file.test.ts',
  'packages/tui/test/cli/serve.test.ts',
  'packages/tui/test/cli/env-file.test.ts',
];

describe("the README's test command, as an ordinary user with an empty home", () => {
  // the user's own corner: root's temporary directories are closed to it
  const corner = mkdtempSync(join(tmpdir(), 'rp-newcomer-'));
  const home = join(corner, 'home');
  const userClone = join(corner, 'clone');
  const prefix = join(home, '.npm-global');
  const user = ordinaryUser(home);
  afterAll(() => {
    user.remove();
    rmSync(corner, { recursive: true, force: true });
  });

  /**
   * A login shell's environment for the user: its own HOME and nothing of the test's but
   * PATH, the language and the machine's network settings (CA bundle, proxies). npm's global
   * prefix is an empty directory of the user's, as on a machine with only Node (this one may
   * have pnpm under /usr), while npm keeps the machine's global settings.
   */
  function newcomerEnv(): NodeJS.ProcessEnv {
    const env: NodeJS.ProcessEnv = {
      HOME: home,
      USER: user.name,
      LOGNAME: user.name,
      SHELL: '/bin/bash',
      LANG: process.env.LANG ?? 'C.UTF-8',
      PATH: [dirname(process.execPath), '/usr/local/bin', '/usr/bin', '/bin'].join(delimiter),
      npm_config_prefix: prefix,
      npm_config_globalconfig: globalNpmConfig(),
    };
    const network = ['NODE_EXTRA_CA_CERTS', 'SSL_CERT_FILE', 'SSL_CERT_DIR', 'HTTP_PROXY', 'HTTPS_PROXY', 'NO_PROXY'];
    for (const name of [...network, ...network.map((n) => n.toLowerCase())]) {
      const value = process.env[name];
      if (value !== undefined) env[name] = value;
    }
    return env;
  }

  it(
    'installs pnpm 10 through npx, builds, and passes',
    async () => {
      await mustRun(`git clone --quiet ${JSON.stringify(REPO_ROOT)} ${JSON.stringify(userClone)}`, corner, personEnv({}), 2 * MINUTES);
      mkdirSync(prefix, { recursive: true });
      chmodSync(corner, 0o755);
      if (user.as !== undefined) chownAll(corner, user.uid, user.gid);

      const command = readmeCommand(readFileSync(join(userClone, 'README.md'), 'utf8'), 'Run the tests');
      expect(command).toMatch(/ pnpm@10 test$/);
      const run = await shell(`${command} ${USER_TEST_FILES.join(' ')}`, userClone, newcomerEnv(), 15 * MINUTES, user.as);
      expect(run.code, `as ${user.name}: ${run.stdout.slice(-3000)}\n${run.stderr.slice(-3000)}`).toBe(0);
      const files = /Test Files\s+(\d+) passed \((\d+)\)/.exec(run.stdout.replace(/\x1b\[[0-9;]*m/g, ''));
      expect(files, run.stdout.slice(-2000)).not.toBeNull();
      expect(Number(files![1])).toBe(USER_TEST_FILES.length);
      expect(files![2]).toBe(files![1]);
      // the machine's npm had no pnpm: it came through npx, into the user's own npm cache
      expect(npxPnpms(join(home, '.npm'))).toHaveLength(1);
    },
    20 * MINUTES,
  );
});

/** The npm settings of this machine (its CA file, its registry), wherever npm keeps them. */
function globalNpmConfig(): string {
  const found = spawnSync('npm', ['config', 'get', 'globalconfig'], { encoding: 'utf8', env: personEnv({}) });
  return found.stdout.trim();
}

function chownAll(path: string, uid: number, gid: number): void {
  const done = spawnSync('chown', ['-R', `${uid}:${gid}`, path], { encoding: 'utf8' });
  if (done.status !== 0) throw new Error(`chown -R ${uid}:${gid} ${path} failed: ${done.stderr.trim()}`);
}
