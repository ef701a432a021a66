import { seg } from '../../../output/segment.js';
import type { KeyContext } from '../keymap.js';
import { truncate } from '../../../output/text.js';
import { Footer } from './Footer.js';

/** The `/` prompt in the footer row: the log narrows as you type; Enter keeps, Esc clears. */
export function FilterPrompt({ filter, ctx, width }: { filter: string; ctx: KeyContext; width: number }) {
  const lead = [seg('/', 'key'), seg(' filter: '), seg(truncate(filter, 30), 'title'), seg('▏', 'key')];
  return <Footer mode="filter" ctx={ctx} width={width} lead={lead} />;
}
