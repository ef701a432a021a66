import type { z } from 'zod';
import { closestWord } from './closest-word.js';
import { knownKeysAt } from './schema-walk.js';
import { ANY_NAME, ENTRY, schemaKeys } from './schema-keys.js';

/**
 * What to say about a key the schema does not allow at `at` (the path of
 * the mapping holding it), most useful first: a secret written where its
 * variable's name belongs (`api_key` → `api_key_env`), a typo of a key of
 * this mapping, the places a key of that name does belong
 * (`routes[0].cost_per_mtok` → `routes[0].chain[N].cost_per_mtok`).
 * Never the value: it may be the very secret.
 */
export function unknownKeyMessage(schema: z.ZodType, at: readonly PropertyKey[], key: string): string {
  const known = knownKeysAt(schema, at);
  const variable = `${key}_env`;
  if (known.includes(variable)) {
    return `unknown key: the config never holds a secret itself; put it in an environment variable and name that variable here as ${variable}: NAME (\`serve --env-file FILE\` reads variables from a file)`;
  }
  const meant = closestWord(key, known);
  if (meant !== null) return `unknown key (did you mean ${meant}?)`;
  const places = schemaKeys(schema)
    .filter((k) => k.key === key)
    .map((k) => placeFrom(at, k.segments));
  if (places.length === 0) return 'unknown key';
  const shown = [...new Set(places)].slice(0, 3);
  return `unknown key here (it belongs at ${shown.join(' or ')})`;
}

/**
 * A key's place written from where the person is: the part of the path they
 * share keeps the person's own indexes and names (`routes[0]`), the rest
 * says where to go (`.chain[N].cost_per_mtok`).
 */
function placeFrom(at: readonly PropertyKey[], segments: readonly string[]): string {
  let out = '';
  let shared = true;
  segments.forEach((segment, i) => {
    const here = at[i];
    if (shared && here !== undefined && (segment === ENTRY ? typeof here === 'number' : segment === ANY_NAME || segment === String(here))) {
      out += typeof here === 'number' ? `[${here}]` : `${i === 0 ? '' : '.'}${String(here)}`;
      return;
    }
    shared = false;
    out += segment === ENTRY ? '[N]' : `${i === 0 ? '' : '.'}${segment}`;
  });
  return out;
}
