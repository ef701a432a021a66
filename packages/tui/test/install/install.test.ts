/**
 * The install paths a new user takes, end to end on a fresh clone: the
 * README's install command, then its PATH command, with npm's global prefix
 * in a directory of the user's own (as for someone who cannot write to
 * /usr); and the packed CLI installed alone into an empty prefix, where the
 * demo must run. They use the package registry like the commands they test,
 * through npm's and pnpm's usual caches, so a second run downloads nothing.
 */
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mustRun, personEnv, shell } from './shell.js';

const REPO_ROOT = resolve(fileURLToPath(import.meta.url), '../../../../..');
const MINUTES = 60_000;

/** The first ```sh block after a README heading. */
function readmeCommand(readme: string, heading: string): string {
  const section = readme.slice(readme.indexOf(`\n## ${heading}\n`));
  const command = /```sh\n([^\n]+)\n```/.exec(section)?.[1];
  if (section.length === readme.length + 1 || command === undefined) throw new Error(`README has no sh command under "## ${heading}"`);
  return command;
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

beforeAll(async () => {
  mkdirSync(elsewhere);
  await mustRun(`git clone --quiet ${JSON.stringify(REPO_ROOT)} ${JSON.stringify(clone)}`, work, personEnv({}), 2 * MINUTES);
  readme = readFileSync(join(clone, 'README.md'), 'utf8');
  // the README's first command, up to the demo it then opens (an interactive screen)
  const tryIt = readmeCommand(readme, 'Try it (no keys needed)');
  expect(tryIt).toMatch(/ && pnpm routeplane demo$/);
  const install = tryIt.replace(/ && pnpm routeplane demo$/, '');
  await mustRun(install, clone, userEnv(userPrefix), 8 * MINUTES);
}, 10 * MINUTES);

describe('installing routeplane as a new user does', () => {
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
    '`npm pack` of the CLI package makes one tarball that installs into an empty prefix and runs the demo',
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
      await mustRun(`npm install -g ${JSON.stringify(join(packs, tarballs[0]!))}`, elsewhere, env, 5 * MINUTES);
      const installed = JSON.parse(readFileSync(join(emptyPrefix, 'lib/node_modules/routeplane/package.json'), 'utf8')) as Record<
        string,
        unknown
      >;
      expect(JSON.stringify(installed.dependencies)).not.toContain('workspace:');
      expect(installed).toMatchObject({
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
