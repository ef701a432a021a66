import { helpLines } from '../lines/help-lines.js';
import { Lines } from './Lines.js';

/** The `?` overlay: every key of the keymap. While it shows, keys go to it first (App routes by mode). */
export function HelpOverlay({ width, height }: { width: number; height: number }) {
  return <Lines lines={helpLines(width)} height={height} />;
}
