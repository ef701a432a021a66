import { spawnSync } from 'node:child_process';
import { userInfo } from 'node:os';
import type { RunAs } from './shell.js';

/** A user without root's rights, to run a README command as a newcomer on their own machine would. */
export interface OrdinaryUser {
  name: string;
  uid: number;
  gid: number;
  /** how to spawn as this user: undefined when the test already runs as one */
  as: RunAs | undefined;
  /** deletes the user when this test created it */
  remove(): void;
}

/**
 * The test's own user when it is not root; as root (CI is root on a fresh
 * machine), a user created for this run with `useradd`, whose home is `home`
 * (made by the caller). Says plainly when it cannot be had.
 */
export function ordinaryUser(home: string): OrdinaryUser {
  const me = userInfo();
  if (me.uid !== 0) return { name: me.username, uid: me.uid, gid: me.gid, as: undefined, remove: () => {} };
  if (spawnSync('sh', ['-c', 'command -v useradd']).status !== 0) {
    throw new Error("this test runs the README's commands as an ordinary user; as root it creates one with useradd, which is not on PATH");
  }
  // one per run: several worktrees' install tests may run at once
  const name = `rp-newcomer-${process.pid}`;
  const made = spawnSync('useradd', ['--no-create-home', '--home-dir', home, '--shell', '/bin/bash', '--user-group', name], {
    encoding: 'utf8',
  });
  if (made.status !== 0) throw new Error(`useradd ${name} failed (exit ${made.status}): ${made.stderr.trim()}`);
  const id = (flag: string) => Number(spawnSync('id', [flag, name], { encoding: 'utf8' }).stdout.trim());
  const uid = id('-u');
  const gid = id('-g');
  return {
    name,
    uid,
    gid,
    as: { uid, gid },
    remove: () => {
      spawnSync('userdel', [name]);
    },
  };
}
