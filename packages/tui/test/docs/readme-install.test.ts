import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const REPO_ROOT = resolve(fileURLToPath(import.meta.url), '../../../../..');
const README = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
const CI = readFileSync(join(REPO_ROOT, '.ci/run'), 'utf8');

/** The ```sh block under a README heading, whole. */
function block(heading: string): string {
  const at = README.indexOf(`\n## ${heading}\n`);
  expect(at, `README has "## ${heading}"`).toBeGreaterThan(-1);
  return /```sh\n([\s\S]*?)```/.exec(README.slice(at))![1]!;
}

// `pnpm test:install` runs these commands for real; this says, in a second, what they promise.
describe("the README's two install commands", () => {
  const tryIt = block('Try it (no keys needed)');
  const tests = block('Run the tests');

  it('are one line each: one installs and runs the demo, one installs and runs the tests', () => {
    expect(tryIt.trimEnd().split('\n')).toHaveLength(1);
    expect(tests.trimEnd().split('\n')).toHaveLength(1);
    expect(tryIt.trimEnd()).toMatch(/^npx --yes pnpm@10 install --frozen-lockfile && .* routeplane demo$/);
    expect(tests.trimEnd()).toMatch(/^npx --yes pnpm@10 install --frozen-lockfile && .* pnpm@10 test$/);
  });

  it('install nothing globally, so an ordinary user can paste them, and leave a pnpm 10 that is there as it is', () => {
    for (const command of [tryIt, tests]) {
      expect(command).not.toMatch(/install -g|--global|corepack enable|sudo/);
      // `npx pnpm@10 ARGS` runs an installed pnpm 10 when there is one (npx --package … -c would fetch its own)
      expect(command).not.toMatch(/--package|-p pnpm| -c /);
    }
  });

  it('.ci/run runs the test command exactly as the README writes it', () => {
    expect(CI.split('\n')).toContain(tests.trimEnd());
    expect(CI).not.toMatch(/npm install -g pnpm/);
  });
});
