import type { Tone } from '../../output/segment.js';

/**
 * The only place colour is chosen. Lines name a *tone* (what a piece of text
 * means); the theme turns a tone into Ink text props. With NO_COLOR the
 * no-colour theme returns no `color` at all, so no colour escape is ever
 * written; meaning is always carried by a glyph or a word as well, and the
 * remaining attributes (bold, dim, inverse) are not colour (no-color.org).
 */
export interface ToneProps {
  color?: string;
  bold?: boolean;
  dimColor?: boolean;
  inverse?: boolean;
}

export interface Theme {
  readonly colour: boolean;
  props(tone: Tone): ToneProps;
}

const COLOURED: Record<Tone, ToneProps> = {
  plain: {},
  ok: { color: 'green' },
  bad: { color: 'red', bold: true },
  warn: { color: 'yellow' },
  probe: { color: 'cyan' },
  info: { color: 'blue' },
  muted: { color: 'gray' },
  title: { bold: true },
  key: { color: 'cyan', bold: true },
  selected: { inverse: true },
  badge: { color: 'black', inverse: true, bold: true },
};

const MONOCHROME: Record<Tone, ToneProps> = {
  plain: {},
  ok: {},
  bad: { bold: true },
  warn: {},
  probe: {},
  info: {},
  muted: { dimColor: true },
  title: { bold: true },
  key: { bold: true },
  selected: { inverse: true },
  badge: { inverse: true, bold: true },
};

export function createTheme(options: { colour: boolean }): Theme {
  const table = options.colour ? COLOURED : MONOCHROME;
  return { colour: options.colour, props: (tone) => table[tone] };
}

/** NO_COLOR set to anything non-empty turns colour off (no-color.org). */
export function themeFromEnv(env: NodeJS.ProcessEnv = process.env): Theme {
  return createTheme({ colour: !env.NO_COLOR });
}
