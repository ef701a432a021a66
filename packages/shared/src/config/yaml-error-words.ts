import type { ErrorCode, YAMLError } from 'yaml';

/**
 * The YAML library's errors in plain words, one per kind it can report (its
 * own sentences speak of tokens and flow collections). The line is given
 * beside the message. Some codes cover unlike mistakes — MISSING_CHAR is
 * both a missing closing quote and a line indented less than its
 * neighbours — so `yamlErrorWords` first reads which sentence the library
 * wrote, and these words are for the rest.
 */
export const YAML_ERROR_WORDS: Record<ErrorCode, string> = {
  ALIAS_PROPS: 'an alias (*name) cannot carry a tag or an anchor',
  BAD_ALIAS: 'an alias (*name) names no anchor (&name) above it',
  BAD_COLLECTION_TYPE: 'a tag (!name) does not fit the value it is on',
  BAD_DIRECTIVE: 'a % directive is not understood',
  BAD_DQ_ESCAPE: 'a backslash escape in a "double-quoted" string is not valid',
  BAD_INDENT: 'this line is not indented like the lines around it',
  BAD_PROP_ORDER: 'an anchor (&) or tag (!) is not where YAML allows one',
  BAD_SCALAR_START: 'a value starts with a character YAML reserves (put the value in quotes)',
  BLOCK_AS_IMPLICIT_KEY: 'a key is not where YAML expects one (a missing ":" or a line indented too far?)',
  BLOCK_IN_FLOW: 'indented lines inside [ ] or { } (write that value on one line, or without brackets)',
  DUPLICATE_KEY: 'the same key appears twice in one mapping',
  IMPOSSIBLE: 'this part of the file cannot be read as YAML',
  KEY_OVER_1024_CHARS: 'a key is longer than 1024 characters',
  MISSING_CHAR: 'a closing quote or bracket, or a "," or ":" between entries, is missing',
  MULTILINE_IMPLICIT_KEY: 'a key is not where YAML expects one (a missing ":" or a line indented too far?)',
  MULTIPLE_ANCHORS: 'a value has two anchors (&name)',
  MULTIPLE_DOCS: 'the file holds more than one YAML document (---): a config is one',
  MULTIPLE_TAGS: 'a value has two tags (!name)',
  NON_STRING_KEY: 'a key must be plain text',
  RESOURCE_EXHAUSTION: 'aliases (*name) repeat or nest too deeply to read',
  TAB_AS_INDENT: 'a tab is used to indent (YAML indents with spaces)',
  TAG_RESOLVE_FAILED: 'a tag (!name) is not understood',
  UNEXPECTED_TOKEN: 'a character is not where YAML allows it (an unclosed or stray bracket, quote or ":"?)',
};

type Mistake =
  /** a line that does not start in its neighbours' column */
  | 'misaligned'
  /** a line indented further than the one above, whose key already has its value */
  | 'under_a_value'
  | 'unclosed_quote'
  | 'unclosed_list'
  | 'unclosed_mapping'
  | 'missing_comma';

/** The library's sentences (the start of its message), by the mistake each one means. */
const LIBRARY_SENTENCES: ReadonlyArray<readonly [sentence: string, mistake: Mistake]> = [
  ['Sequence item without - indicator', 'misaligned'],
  ['All mapping items must start at the same column', 'misaligned'],
  ['All sequence items must start at the same column', 'misaligned'],
  ['A block sequence may not be used as an implicit map key', 'misaligned'],
  ['Nested mappings are not allowed in compact mappings', 'under_a_value'],
  ['Implicit keys need to be on a single line', 'under_a_value'],
  ['Missing closing "quote', 'unclosed_quote'],
  ["Missing closing 'quote", 'unclosed_quote'],
  ['Flow sequence in block collection must be sufficiently indented and end with a ]', 'unclosed_list'],
  ['Flow map in block collection must be sufficiently indented and end with a }', 'unclosed_mapping'],
  ['Missing , between', 'missing_comma'],
  ['Missing , or : between', 'missing_comma'],
];

/** One YAML error as a person reads it: what is wrong, and the line to look at. */
export interface YamlErrorWords {
  message: string;
  line: number | undefined;
  /** a line out of its neighbours' column: the lines after it are often read wrong too */
  indentation: boolean;
}

/** `error` in plain words; `lines` are the file's lines, to say how a line is indented. */
export function yamlErrorWords(error: YAMLError, lines: readonly string[]): YamlErrorWords {
  const line = error.linePos?.[0]?.line;
  const mistake = LIBRARY_SENTENCES.find(([sentence]) => error.message.startsWith(sentence))?.[1];
  const fallback = { message: YAML_ERROR_WORDS[error.code], line, indentation: false };
  if (line === undefined || mistake === undefined) return fallback;
  switch (mistake) {
    case 'misaligned': {
      const above = contentLineBefore(lines, line);
      const here = indentOf(lines[line - 1]);
      if (above === undefined || here === undefined || here === indentOf(lines[above - 1])) return fallback;
      return {
        message: `this line is indented by ${spaces(here)}, the line above by ${spaces(indentOf(lines[above - 1])!)}: the keys of one mapping, and the entries of one list, start in the same column`,
        line,
        indentation: true,
      };
    }
    case 'under_a_value': {
      // the library points at the line whose value is already given; the mistake is on the next one
      const below = contentLineAfter(lines, line);
      const here = indentOf(lines[line - 1]);
      const further = below === undefined ? undefined : indentOf(lines[below - 1]);
      if (below === undefined || here === undefined || further === undefined || further <= here) return fallback;
      return {
        message: `this line is indented further than the line above (${spaces(further)} against ${here}), whose key already has a value: line the two up`,
        line: below,
        indentation: true,
      };
    }
    case 'unclosed_quote':
      return { message: 'a quoted value that starts above never ends: its closing quote is missing', line, indentation: false };
    case 'unclosed_list':
      return {
        message: 'a [ list that starts above is not closed with ] (or its next line is not indented under its key)',
        line,
        indentation: false,
      };
    case 'unclosed_mapping':
      return {
        message: 'a { mapping that starts above is not closed with } (or its next line is not indented under its key)',
        line,
        indentation: false,
      };
    case 'missing_comma':
      return {
        message: 'a "," between the entries inside [ ] or { } is missing (or a ":" between a key and its value)',
        line,
        indentation: false,
      };
  }
}

function spaces(n: number): string {
  return n === 1 ? '1 space' : `${n} spaces`;
}

/** Leading spaces of a line, or undefined for a line that holds nothing (blank, or only a comment). */
function indentOf(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const trimmed = text.trimStart();
  if (trimmed === '' || trimmed.startsWith('#')) return undefined;
  return text.length - text.replace(/^ +/, '').length;
}

function contentLineBefore(lines: readonly string[], line: number): number | undefined {
  for (let n = line - 1; n >= 1; n--) if (indentOf(lines[n - 1]) !== undefined) return n;
  return undefined;
}

function contentLineAfter(lines: readonly string[], line: number): number | undefined {
  for (let n = line + 1; n <= lines.length; n++) if (indentOf(lines[n - 1]) !== undefined) return n;
  return undefined;
}
