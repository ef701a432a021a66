import { type Segment, seg } from '../../../output/segment.js';
import { footerText, isEnabled, KEYMAP, type KeyBinding, type KeyContext, type Mode } from '../keymap.js';
import { textWidth } from '../../../output/text.js';
import { clipLine, line, type Line } from './line.js';

/**
 * The footer: the keys of the current mode, from the keymap table. A key that
 * cannot act now (reset while disconnected) is dimmed, not hidden, so the
 * layout does not jump. In the main view only the keys of the pane with the
 * focus are listed (`Tab` says where it would move the focus). When the line is too narrow, hints drop from the
 * right, but `? help` and `q quit` always stay.
 */
const ALWAYS_SHOWN = new Set(['open-help', 'quit', 'close-overlay']);

interface Hint {
  readonly binding: KeyBinding;
  readonly segments: Segment[];
}

function hints(mode: Mode, ctx: KeyContext, keymap: readonly KeyBinding[]): Hint[] {
  const out: Hint[] = [];
  for (const binding of keymap) {
    if (binding.mode !== mode || (binding.focus !== undefined && binding.focus !== ctx.focus)) continue;
    const text = footerText(binding, ctx);
    if (text === null) continue;
    const enabled = isEnabled(binding, ctx);
    out.push({
      binding,
      segments: [seg(binding.footerKeys ?? binding.keyLabel, enabled ? 'key' : 'muted'), seg(' '), seg(text, enabled ? 'plain' : 'muted')],
    });
  }
  return out;
}

function join(list: readonly Hint[], lead: readonly Segment[]): Segment[] {
  const out: Segment[] = [...lead];
  list.forEach((hint, i) => {
    if (i > 0 || lead.length > 0) out.push(seg('  '));
    out.push(...hint.segments);
  });
  return out;
}

export function footerLine(
  mode: Mode,
  ctx: KeyContext,
  width: number,
  lead: readonly Segment[] = [],
  keymap: readonly KeyBinding[] = KEYMAP,
): Line {
  let list = hints(mode, ctx, keymap);
  const fits = () =>
    textWidth(
      join(list, lead)
        .map((s) => s.text)
        .join(''),
    ) <=
    width - 1;
  while (!fits()) {
    const drop = list.map((h) => h.binding.command).findLastIndex((c) => !ALWAYS_SHOWN.has(c));
    if (drop === -1) break;
    list = list.filter((_, i) => i !== drop);
  }
  return clipLine(line([seg(' '), ...join(list, lead)]), width);
}
