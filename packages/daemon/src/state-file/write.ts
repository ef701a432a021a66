import { mkdir, open, rename, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { StateFile } from '@routeplane/shared';

/** `PATH.tmp-<pid>`: in the same directory, so the rename that publishes it is atomic. */
export const TEMP_SUFFIX = '.tmp-';

/**
 * Writes the state file so that it is, at every moment, either the previous
 * complete file or the new complete one: the new text goes to a temporary
 * file beside it (mode 0600: it names seats and what providers answered),
 * is flushed to disk, and is renamed over the old one. A missing directory
 * is created 0700, as the control socket's is.
 */
export async function writeStateFile(path: string, state: StateFile): Promise<void> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const temp = `${path}${TEMP_SUFFIX}${process.pid}`;
  try {
    const file = await open(temp, 'w', 0o600);
    try {
      // a temporary file left by an earlier run of this pid keeps its old mode: set it
      await file.chmod(0o600);
      await file.writeFile(`${JSON.stringify(state, null, 2)}\n`);
      await file.sync();
    } finally {
      await file.close();
    }
    await rename(temp, path);
  } catch (err) {
    await unlink(temp).catch(() => {});
    throw err;
  }
}
