import type { z } from 'zod';
import { KEY_DOCS } from './key-docs.js';
import { schemaKeys, type SchemaKey } from './schema-keys.js';

/** The command that writes `docs/config.md`, named wherever it is out of date. */
export const CONFIG_DOCS_COMMAND = 'pnpm docs:config';

/**
 * `docs/config.md`: every key of the schema with its type, its default and
 * its line from KEY_DOCS, one table per top-level key. Pure: the same schema
 * and lines give the same text, so a test can tell whether the committed
 * file is current.
 */
export function configReference(schema: z.ZodType, docs: Readonly<Record<string, string>> = KEY_DOCS): string {
  const keys = schemaKeys(schema);
  const sections = keys.filter((k) => k.segments.length === 1);
  const out = [
    '# routeplane.yaml: every key',
    '',
    `<!-- Generated from the config schema by \`${CONFIG_DOCS_COMMAND}\`: edit packages/shared/src/config/key-docs.ts (the lines) or schema.ts (the keys), then run it. -->`,
    '',
    'Every key the config may hold, with its type, its default and what it does. `seats[].id` is the',
    '`id` of any entry of the `seats` list; `<name>` stands for a key of your own choosing. A key',
    'with no default is required where its section is present. Relative paths are relative to the',
    "config file's directory. An unknown key is an error (`routeplane config check` names it and,",
    'when a key of that name belongs elsewhere, where), so a typo never reads as configured.',
    '',
  ];
  for (const section of sections) {
    const sectionDefault = section.defaultValue === null ? 'required' : `default \`${section.defaultValue}\``;
    out.push(`## ${section.key}`, '', `${docs[section.path] ?? ''} (${plainText(section.type)}; ${sectionDefault})`, '');
    const inside = keys.filter((k) => k.segments[0] === section.key && k !== section);
    if (inside.length === 0) continue;
    out.push('| key | type | default | what it does |', '|---|---|---|---|');
    for (const key of inside) {
      out.push(`| \`${key.path}\` | ${plainText(key.type)} | ${defaultCell(key)} | ${(docs[key.path] ?? '').replaceAll('|', '\\|')} |`);
    }
    out.push('');
  }
  return out.join('\n');
}

function defaultCell(key: SchemaKey): string {
  if (key.defaultValue !== null) return `\`${key.defaultValue}\``;
  // optional without a default: what its absence means is in its line
  return key.required ? 'required' : '—';
}

/** Type words hold patterns (`[a-z0-9]*`): shown as written, not read as Markdown. */
function plainText(words: string): string {
  return words.replace(/[\\*_[\]<|]/g, (c) => `\\${c}`);
}

/** The keys of the schema with no line in `docs`, and the lines that name no key of it. */
export function keyDocsGaps(
  schema: z.ZodType,
  docs: Readonly<Record<string, string>> = KEY_DOCS,
): { undescribed: string[]; stale: string[] } {
  const paths = new Set(schemaKeys(schema).map((k) => k.path));
  return {
    undescribed: [...paths].filter((path) => !docs[path]?.trim()),
    stale: Object.keys(docs).filter((path) => !paths.has(path)),
  };
}
