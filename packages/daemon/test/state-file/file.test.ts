import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseStateFile, STATE_FILE_VERSION, type StateFile } from '@routeplane/shared';
import { afterEach, describe, expect, it } from 'vitest';
import { loadStateFile, removeStaleTemps } from '../../src/state-file/read.js';
import { writeStateFile } from '../../src/state-file/write.js';

/** Reading and writing `influence.state_file` on a real file system. */

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'rp-state-'));
  dirs.push(d);
  return d;
}

const NOW = 1_764_576_000_000;
const state: StateFile = {
  version: STATE_FILE_VERSION,
  saved_at: NOW,
  saved_by: 'host:1',
  breakers: [
    {
      key: 'credit:a',
      kind: 'credit',
      scope: 'seat',
      seat: 'a',
      upstream: null,
      model: null,
      phase: 'open',
      since: NOW,
      until: NOW + 60_000,
      reset_at: null,
      cooldown_ms: 60_000,
      failed_probes: 0,
      refused_count: 2,
      skipped_count: 0,
      claimed_at: null,
      signal: { status: 402, type: null, code: null, header: null, message: 'out of credit' },
    },
  ],
  streaks: [{ scope: 'model', seat: 'a', model: 'm', count: 1, last_failure_at: NOW }],
};

describe('writing the state file', () => {
  it('creates a missing directory 0700, writes the file 0600 through a temporary file that does not stay', async () => {
    const dir = join(tempDir(), 'nested', 'state');
    const path = join(dir, 'breakers.json');
    await writeStateFile(path, state);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir)).toEqual(['breakers.json']);
    expect(parseStateFile(JSON.parse(readFileSync(path, 'utf8')))).toEqual({ ok: true, state });
  });

  it('replaces a file a person made readable to others with a 0600 one', async () => {
    const path = join(tempDir(), 'breakers.json');
    writeFileSync(path, 'old', { mode: 0o644 });
    writeFileSync(`${path}.tmp-${process.pid}`, 'left by an earlier run of this pid', { mode: 0o644 });
    await writeStateFile(path, state);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual(state);
  });

  it('a write that fails rejects and leaves the old file whole', async () => {
    const dir = tempDir();
    const path = join(dir, 'breakers.json');
    await writeStateFile(path, state);
    // the temporary file's name is taken by a directory: opening it fails, whoever runs the test
    mkdirSync(`${path}.tmp-${process.pid}`);
    await expect(writeStateFile(path, { ...state, breakers: [] })).rejects.toThrow(/EISDIR/);
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual(state);
  });
});

describe('reading the state file', () => {
  it('a missing file is a first start', async () => {
    expect(await loadStateFile(join(tempDir(), 'none.json'), NOW)).toEqual({ kind: 'missing' });
  });

  it('reads what a daemon wrote', async () => {
    const path = join(tempDir(), 'breakers.json');
    await writeStateFile(path, state);
    expect(await loadStateFile(path, NOW)).toEqual({ kind: 'loaded', state });
  });

  const unusable: Array<[string, (path: string) => void, RegExp]> = [
    ['text that is not JSON', (p) => writeFileSync(p, '{"version": 1, "breakers": ['), /^not valid JSON$/],
    ['an empty file', (p) => writeFileSync(p, ''), /^not valid JSON$/],
    ['JSON of another shape', (p) => writeFileSync(p, JSON.stringify({ breakers: 'none' })), /^not a state file \(version: /],
    [
      'a breaker off the schema',
      (p) => writeFileSync(p, JSON.stringify({ ...state, breakers: [{ ...state.breakers[0], phase: 'half_open' }] })),
      /^not a state file \(breakers\.0\.phase: /,
    ],
    ['a newer format', (p) => writeFileSync(p, JSON.stringify({ ...state, version: 2 })), /format version 2; this daemon reads version 1/],
    ['a directory', (p) => mkdirSync(join(p, 'inside'), { recursive: true }), /^a directory, not a file$/],
  ];
  for (const [what, make, why] of unusable) {
    it(`${what}: moved aside to PATH.corrupt-<epoch ms>, kept as it was`, async () => {
      const dir = tempDir();
      const path = join(dir, 'breakers.json');
      make(path);
      const before = statSync(path).isFile() ? readFileSync(path, 'utf8') : null;
      const outcome = await loadStateFile(path, NOW);
      expect(outcome).toEqual({ kind: 'set_aside', why: expect.stringMatching(why), movedTo: `${path}.corrupt-${NOW}` });
      expect(existsSync(path)).toBe(false);
      if (before !== null) expect(readFileSync(`${path}.corrupt-${NOW}`, 'utf8')).toBe(before);
      else expect(readdirSync(`${path}.corrupt-${NOW}`)).toEqual(['inside']);
    });
  }

  it('the reason never quotes the file (a JSON error would)', async () => {
    const path = join(tempDir(), 'breakers.json');
    writeFileSync(path, 'sk-not-json-but-secret-looking');
    const outcome = await loadStateFile(path, NOW);
    expect(JSON.stringify(outcome)).not.toContain('sk-not-json');
  });
});

describe('temporary files a cut-short save left', () => {
  it('are removed when their process is gone; a live process’s and other files are left', async () => {
    const dir = tempDir();
    const path = join(dir, 'breakers.json');
    const gone = await exitedPid();
    const names = [
      'breakers.json',
      `breakers.json.tmp-${gone}`,
      `breakers.json.tmp-${process.ppid}`, // alive: a daemon writing right now
      'breakers.json.corrupt-1',
      'other.json.tmp-1',
    ];
    for (const n of names) writeFileSync(join(dir, n), '{}');
    await removeStaleTemps(path);
    expect(readdirSync(dir).sort()).toEqual(names.filter((n) => n !== `breakers.json.tmp-${gone}`).sort());
  });
});

/** The pid of a process that has exited. */
function exitedPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
  return new Promise((resolve) => child.once('exit', () => resolve(child.pid!)));
}
