#!/usr/bin/env node
// `pnpm docs:config`: writes docs/config.md from the config schema and the lines of
// packages/shared/src/config/key-docs.ts (built first by the script's `tsc -b`).
// packages/shared/test/config-reference.test.ts fails while the committed file differs.
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { configReference } from '../packages/shared/dist/config/config-reference.js';
import { configSchema } from '../packages/shared/dist/config/schema.js';

const file = join(dirname(fileURLToPath(import.meta.url)), '..', 'docs', 'config.md');
writeFileSync(file, configReference(configSchema));
console.log(`wrote ${file}`);
