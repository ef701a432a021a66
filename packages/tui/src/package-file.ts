import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * A file shipped beside this package's package.json (`scenarios/default.yaml`).
 * The code that asks runs from src/ in tests, from dist/ after `tsc`, and from
 * a bundle chunk in dist/chunks/ when installed: the package root is the
 * nearest directory up that holds a package.json, wherever that is.
 */
export function packageFile(relative: string, from: string = import.meta.url): string {
  const start = dirname(fileURLToPath(from));
  for (let dir = start; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return join(dir, relative);
    if (dirname(dir) === dir) return join(start, relative);
  }
}
