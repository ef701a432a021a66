import { seg, type Segment } from '../../../output/segment.js';
import { fit, textWidth } from '../../../output/text.js';
import { KEYMAP, MODE_TITLES, type KeyBinding, type Mode } from '../keymap.js';
import { clipLine, line, type Line, wrapLine } from './line.js';
import { SPARK_LEGEND } from './sparkline.js';
import { STATE_GLYPH } from './state-words.js';

/**
 * The `?` overlay: every binding of the keymap, by mode (and, in the main
 * view, by the pane that has the focus), what the glyphs mean, and every
 * word the screen uses that a newcomer could read two ways.
 */
const MODE_ORDER: readonly Mode[] = ['main', 'filter', 'confirm', 'explain', 'help'];

/** The words of the screen, explained: `?` explains each word. */
export const WORDS: readonly (readonly [word: string, meaning: string])[] = [
  ['failed again N', 'answers that failed while the breaker was already open'],
  ['skipped N background', 'background requests held back by this breaker'],
  ['probe in', 'when one request may test the target again'],
  ['ends in', 'a rate limit ends by itself: no probe needed'],
  ['resets', "the provider's stated quota reset; one probe confirms it"],
  ['probe ready', 'the next request tests it (probing: in flight)'],
  ['fail-open', 'all targets held back: the configured order is tried'],
  ['spread', "sessions spread over targets; share: of the last 5 min's"],
  ['drained', 'weight 0: never tried'],
  ['5h 62%', "the seat's usage window closest to full"],
  ['login · no key', "the agents' own login passes through · a seat that sends no key"],
  ['extra usage', "the seat's plan billed its last answer past the plan"],
  ['stale', 'disconnected: the countdown stopped when it was lost'],
  ['(from host:pid)', 'another daemon sharing the store made this change'],
  ['probe (log)', 'an attempt that tested a tripped target'],
  ['↪ (sessions)', "the session's last request failed over to another target"],
];

export function helpLines(width: number, keymap: readonly KeyBinding[] = KEYMAP): Line[] {
  const labels = [...MODE_ORDER.map((m) => MODE_TITLES[m]), `${MODE_TITLES.main} (panes)`, `${MODE_TITLES.main} (log)`];
  const modeW = Math.max(...labels.map(textWidth), 'Glyphs'.length);
  const keyW = Math.max(...keymap.map((b) => textWidth(b.keyLabel)));
  const wordW = Math.max(...WORDS.map(([w]) => textWidth(w)));
  // a long meaning goes on under itself rather than being cut
  const row = (head: string, key: string, rest: Segment[], w = keyW): Line[] =>
    wrapLine(
      line([seg(' '), seg(fit(head, modeW), 'title'), seg('  '), seg(fit(key, w), 'key'), seg('  '), ...rest]),
      width,
      1 + modeW + 2 + w + 2,
    );
  const lines: Line[] = [];
  for (const mode of MODE_ORDER) {
    const groups = mode === 'main' ? ([undefined, 'upper', 'log'] as const) : ([undefined] as const);
    for (const focus of groups) {
      const title = focus === 'log' ? `${MODE_TITLES[mode]} (log)` : focus === 'upper' ? `${MODE_TITLES[mode]} (panes)` : MODE_TITLES[mode];
      const bindings = keymap.filter((b) => b.mode === mode && b.focus === focus);
      for (const [i, binding] of bindings.entries()) lines.push(...row(i === 0 ? title : '', binding.keyLabel, [seg(binding.label)]));
    }
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
        seg('  '),
        seg(`${STATE_GLYPH.drained} drained`, 'muted'),
      ]),
      width,
    ),
    ...row('', SPARK_LEGEND.ok, [seg('attempts per 5 s over the last 2 minutes, all answered')]),
    ...row('', SPARK_LEGEND.failed, [seg('a 5 s bucket in which attempts failed')]),
  );
  for (const [i, [word, meaning]] of WORDS.entries()) lines.push(...row(i === 0 ? 'Words' : '', word, [seg(meaning)], wordW));
  return lines;
}
