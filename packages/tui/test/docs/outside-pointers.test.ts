import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const REPO_ROOT = resolve(fileURLToPath(import.meta.url), '../../../../..');

/**
 * Pointers at documents that are not in the repository: the contract's pages
 * (`spec/lanes.md`, `SPEC.md`, `(spec "Configuration")`), its sources
 * (`seeds/…`, `reference/….md`) and the directory they live in (`../shared/…`).
 * A reader of the repository cannot follow them: a comment says the rule in
 * words, or points at `docs/…` or the README.
 */
const OUTSIDE = /spec\/[a-z0-9-]+\.md|\bSPEC\.md|\bseeds\/|\.\.\/shared\/|\breference\/[a-z-]+\.md|\(spec[ "]|\bseed 00\d/;

describe('the repository', () => {
  it('points at no document outside it, in any file it holds', () => {
    const files = execFileSync('git', ['ls-files'], { cwd: REPO_ROOT, encoding: 'utf8' })
      .split('\n')
      .filter((f) => /\.(ts|tsx|mjs|js|json|md|yaml|sh)$|^\.ci\//.test(f) && f !== 'pnpm-lock.yaml');
    expect(files.length).toBeGreaterThan(100);
    const found: string[] = [];
    for (const file of files) {
      let text: string;
      try {
        text = readFileSync(join(REPO_ROOT, file), 'utf8');
      } catch {
        continue; // listed but gone from the working tree
      }
      text.split('\n').forEach((line, i) => {
        // this file's own pattern is the one place the pointers may be spelled out
        if (file.endsWith('outside-pointers.test.ts')) return;
        if (OUTSIDE.test(line)) found.push(`${file}:${i + 1}: ${line.trim()}`);
      });
    }
    expect(found, `say the rule in words, or point at docs/ or the README:\n${found.join('\n')}`).toEqual([]);
  });

  it('the check finds what it looks for', () => {
    for (const line of [
      ' * Live reload (spec/lanes.md "Live reload"): SIGHUP',
      '/** Where the config is looked for (spec "Configuration"). */',
      '// see seeds/000_influence.md',
      ' * as SPEC.md says',
    ]) {
      expect(OUTSIDE.test(line), line).toBe(true);
    }
    expect(OUTSIDE.test('const load = (spec) => import(spec);')).toBe(false);
    expect(OUTSIDE.test('see docs/config.md')).toBe(false);
  });
});
