import type { DecisionEvent } from '@routeplane/shared';
import { explainDecision } from '../../../output/explain-decision.js';
import { seg } from '../../../output/segment.js';
import { line, titleLine, wrapLine } from '../lines/line.js';
import { Lines } from './Lines.js';

/** Enter on a decision: what `routeplane why` prints for it, scrolled with ↑↓; Esc or q closes it. */
export function ExplainOverlay({
  decision,
  width,
  height,
  scroll,
}: {
  decision: DecisionEvent;
  width: number;
  height: number;
  scroll: number;
}) {
  const all = explainLines(decision, width);
  const rows = Math.max(1, height - 1);
  const start = Math.min(scroll, Math.max(0, all.length - rows));
  const shown = all.slice(start, start + rows);
  const range = all.length > rows ? [seg(`${start + 1}-${start + shown.length} of ${all.length}`, 'muted')] : [];
  const title = titleLine('DECISION', [seg(decision.request_id, 'muted')], width, range);
  return <Lines lines={[title, ...shown]} height={height} />;
}

/** Read whole, not cut: a long line goes on under itself, past the labels. */
export function explainLines(decision: DecisionEvent, width: number) {
  return explainDecision(decision).flatMap((segments) => wrapLine(line([seg(' '), ...segments]), width, WRAP_INDENT));
}

const WRAP_INDENT = 11;

export function explainScrollMax(decision: DecisionEvent, width: number, height: number): number {
  return Math.max(0, explainLines(decision, width).length - Math.max(1, height - 1));
}
