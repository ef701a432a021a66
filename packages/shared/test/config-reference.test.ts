import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CONFIG_DOCS_COMMAND, configReference, keyDocsGaps } from '../src/config/config-reference.js';
import { KEY_DOCS } from '../src/config/key-docs.js';
import { schemaKeys } from '../src/config/schema-keys.js';
import { configSchema, validateConfig } from '../src/index.js';

const REPO_ROOT = resolve(fileURLToPath(import.meta.url), '../../../..');

describe('docs/config.md, the reference of every config key', () => {
  it('has a line in key-docs.ts for every key of the schema, and none for a key it does not have', () => {
    const { undescribed, stale } = keyDocsGaps(configSchema);
    expect(undescribed, `describe these keys in packages/shared/src/config/key-docs.ts: ${undescribed.join(', ')}`).toEqual([]);
    expect(stale, `these lines of packages/shared/src/config/key-docs.ts name no key of the schema: ${stale.join(', ')}`).toEqual([]);
  });

  it(`is current (else: run \`${CONFIG_DOCS_COMMAND}\` and commit docs/config.md)`, () => {
    const committed = readFileSync(join(REPO_ROOT, 'docs/config.md'), 'utf8');
    expect(committed === configReference(configSchema), `docs/config.md is not what the schema makes: run \`${CONFIG_DOCS_COMMAND}\``).toBe(
      true,
    );
  });

  it('names each key with its type, default and line', () => {
    const text = configReference(configSchema);
    expect(text).toContain(
      `| \`routes[].chain[].cost_per_mtok\` | number ≥ 0 or null | \`null\` | ${KEY_DOCS['routes[].chain[].cost_per_mtok']} |`,
    );
    expect(text).toContain(`| \`seats[].provider\` | one of anthropic, openai | required | ${KEY_DOCS['seats[].provider']} |`);
    expect(text).toContain(`| \`routes[].retry.max_attempts\` | whole number 1–5 | \`1\` |`);
    expect(text).toContain(`| \`influence.state_file\` | string or null | \`null\` |`);
    for (const key of schemaKeys(configSchema)) {
      if (key.segments.length === 1) expect(text).toContain(`\n## ${key.path}\n\n${KEY_DOCS[key.path]} (`);
      else expect(text).toContain(`| \`${key.path}\` |`);
    }
  });

  it('a key added to a schema without a line is named, as is a line for a key that went', () => {
    const schema = z.strictObject({
      seats: z.array(z.strictObject({ id: z.string(), wire: z.enum(['messages', 'chat']).default('messages') })),
    });
    expect(keyDocsGaps(schema, { seats: 'x', 'seats[].id': 'y', 'seats[].gone': 'z' })).toEqual({
      undescribed: ['seats[].wire'],
      stale: ['seats[].gone'],
    });
  });

  it('the README links to it', () => {
    expect(readFileSync(join(REPO_ROOT, 'README.md'), 'utf8')).toContain('(docs/config.md)');
  });
});

describe('a required key with a fixed set of values, left out', () => {
  it.each(schemaKeys(configSchema).filter((k) => k.required && k.choices !== null))(
    '$path says it is required and names the values',
    (key) => {
      const seat = { id: 'a', provider: 'anthropic', base_url: 'https://api.anthropic.com', api_key_env: 'KEY_A' };
      const doc: Record<string, unknown> = { seats: [seat], routes: [{ model: 'm', chain: [{ seat: 'a', model: 'x' }] }] };
      // the key's parent is an entry of a top-level list or a top-level mapping in this config
      const [top, ...rest] = key.segments;
      const parent = (rest[0] === '[]' ? (doc[top!] as Record<string, unknown>[])[0] : doc[top!]) as Record<string, unknown>;
      delete parent[key.key];
      const result = validateConfig(doc, 'f.yaml', { KEY_A: 'k' });
      expect(result.ok).toBe(false);
      if (!result.ok) {
        expect(result.issues.map((i) => i.message)).toContain(`is required (one of ${key.choices!.join(', ')})`);
      }
    },
  );

  it('a seat without provider', () => {
    const result = validateConfig(
      { seats: [{ id: 'a', base_url: 'https://x', api_key_env: 'K' }], routes: [{ model: 'm', chain: [{ seat: 'a', model: 'x' }] }] },
      'f.yaml',
      { K: 'k' },
    );
    expect(!result.ok && result.issues.map((i) => `${i.path}: ${i.message}`)).toEqual([
      'seats[0].provider: is required (one of anthropic, openai)',
    ]);
  });
});
