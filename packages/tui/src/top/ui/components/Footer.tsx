import type { Segment } from '../../../output/segment.js';
import { footerLine } from '../lines/footer-lines.js';
import type { KeyContext, Mode } from '../keymap.js';
import { Lines } from './Lines.js';

/** The keys that apply now, generated from the keymap table. */
export function Footer({ mode, ctx, width, lead = [] }: { mode: Mode; ctx: KeyContext; width: number; lead?: readonly Segment[] }) {
  return <Lines lines={[footerLine(mode, ctx, width, lead)]} />;
}
