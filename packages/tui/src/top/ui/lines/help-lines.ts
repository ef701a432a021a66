import { seg } from '../../../output/segment.js';
import { KEYMAP, MODE_TITLES, type KeyBinding, type Mode } from '../keymap.js';
import { fit, textWidth } from '../../../output/text.js';
import { STATE_GLYPH } from './state-words.js';
import { clipLine, line, titleLine, type Line } from './line.js';

/** The `?` overlay: every binding of the keymap, by mode, and what the glyphs mean. */
const MODE_ORDER: readonly Mode[] = ['main', 'filter', 'confirm', 'help'];

export function helpLines(width: number, keymap: readonly KeyBinding[] = KEYMAP): Line[] {
  const modeW = Math.max(...MODE_ORDER.map((m) => textWidth(MODE_TITLES[m])));
  const keyW = Math.max(...keymap.map((b) => textWidth(b.keyLabel)));
  const lines: Line[] = [titleLine('HELP', [seg('every key', 'muted')], width)];
  for (const mode of MODE_ORDER) {
    keymap
      .filter((b) => b.mode === mode)
      .forEach((binding, i) => {
        lines.push(
          clipLine(
            line([
              seg(' '),
              seg(fit(i === 0 ? MODE_TITLES[mode] : '', modeW), 'title'),
              seg('  '),
              seg(fit(binding.keyLabel, keyW), 'key'),
              seg('  '),
              seg(binding.label),
            ]),
            width,
          ),
        );
      });
  }
  lines.push(
    clipLine(
      line([
        seg(' '),
        seg(fit('Glyphs', modeW), 'title'),
        seg('  '),
        seg(`${STATE_GLYPH.healthy} healthy`, 'ok'),
        seg('  '),
        seg(`${STATE_GLYPH.tripped} tripped`, 'bad'),
        seg('  '),
        seg(`${STATE_GLYPH.probe_ready} probe ready`, 'probe'),
        seg('  '),
        seg(`${STATE_GLYPH.probing} probe in flight`, 'probe'),
      ]),
      width,
    ),
  );
  return lines;
}
