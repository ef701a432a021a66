import {
  type Attempt,
  type DecisionChainEntry,
  type DecisionEvent,
  formatDuration,
  signalHeaderName,
  signalWords,
  type Usage,
} from '@routeplane/shared';
import { formatLatency, outcomeWord } from './decision-line.js';
import { seg, type Segment, type Tone } from './segment.js';
import { fit, textWidth } from './text.js';

/**
 * One decision explained in full — what `routeplane why` prints and what
 * `top` shows when Enter opens a decision:
 *
 *   request   req-7f3a… at 14:03:07 · anthropic · streamed · client claude-cli/2.1.197
 *   route     sonnet (asked for "claude-sonnet-5")
 *   agent     ci-bot · lane foreground · session 3fa2b1c0d9e8 · balance spread
 *   chain     as ordered when the request started
 *     1 ● work-max/claude-sonnet-5       healthy
 *     2 ✗ personal-pro/claude-sonnet-5   tripped · credit · probe in 41s · pinned
 *   attempts
 *     1 work-max/claude-sonnet-5   402  credit  400 credit balance is too low  88ms
 *     2 personal-pro/…               ok   ok                                      721ms
 *   served    personal-pro/claude-sonnet-5 · status 200 in 812ms
 *   usage     in 1200 · out 340 · cache read 0 · cache write 0
 *   cost      0.00852 USD
 *
 * Pure: a DecisionEvent in, toned lines out (`paint` them with chalk, or
 * let `top` paint them with its theme). Nothing is cut here; the screen that
 * shows the lines clips them to its width.
 */
export type ExplainedLine = readonly Segment[];

export interface ExplainOptions {
  /** the time of the decision (default: local date and time of day) */
  readonly time?: (ts: number) => string;
  /** the config's currency, when known: said after the cost */
  readonly currency?: string;
}

const LABEL_WIDTH = 9;

function label(text: string): Segment[] {
  return [seg(fit(text, LABEL_WIDTH), 'title'), seg(' ')];
}

const dot = () => seg(' · ', 'muted');

function localDateTime(ts: number): string {
  const d = new Date(ts);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

const CHAIN_GLYPH: Record<DecisionChainEntry['state'], string> = { healthy: '●', tripped: '✗', probe: '◐', skipped: '○' };
const CHAIN_TONE: Record<DecisionChainEntry['state'], Tone> = { healthy: 'ok', tripped: 'bad', probe: 'probe', skipped: 'muted' };

/** `probe in 41s` for a held-back entry, `ends in 3s` for a rate limit, `resets in 2h14m` for a quota. */
function leftWords(entry: DecisionChainEntry): string | null {
  if (entry.left_ms === null) return null;
  const time = formatDuration(entry.left_ms);
  if (entry.reason === 'rate_limit') return `ends in ${time}`;
  if (entry.reason === 'quota') return `resets in ${time}`;
  return `probe in ${time}`;
}

function chainLine(entry: DecisionChainEntry, position: number, nameWidth: number): ExplainedLine {
  const tone = CHAIN_TONE[entry.state];
  const out: Segment[] = [
    seg(`  ${String(position).padStart(2)} `),
    seg(`${CHAIN_GLYPH[entry.state]} `, tone),
    seg(fit(`${entry.seat}/${entry.model}`, nameWidth)),
    seg('  '),
    seg(entry.state, tone),
  ];
  if (entry.reason !== null) out.push(dot(), seg(entry.reason, tone));
  const left = leftWords(entry);
  if (left !== null) out.push(dot(), seg(left));
  if (entry.pinned) out.push(dot(), seg('pinned', 'info'));
  return out;
}

function attemptTone(attempt: Attempt): Tone {
  if (attempt.outcome === 'ok') return 'ok';
  return attempt.outcome === 'http_429' || attempt.outcome === 'aborted' || attempt.outcome === 'http_4xx' ? 'warn' : 'bad';
}

function attemptLine(decision: DecisionEvent, attempt: Attempt, position: number, widths: AttemptWidths): ExplainedLine {
  const target = `${attempt.seat}/${attempt.model}`;
  const probed = decision.chain.some((c) => c.state === 'probe' && c.seat === attempt.seat && c.model === attempt.model);
  const tone = attemptTone(attempt);
  const out: Segment[] = [
    seg(`  ${String(position).padStart(2)} `),
    seg(fit(target, widths.target)),
    seg('  '),
    seg(fit(outcomeWord(attempt), widths.outcome), tone),
    seg('  '),
    seg(fit(attempt.evidence ?? 'no evidence', widths.evidence), attempt.evidence === null ? 'muted' : tone),
    seg('  '),
    seg(formatLatency(attempt.ms).padStart(widths.ms), 'muted'),
  ];
  if (attempt.retry > 0) out.push(dot(), seg(`retry ${attempt.retry}`, 'warn'));
  if (probed) out.push(dot(), seg('probe', 'probe'));
  else if (decision.fail_open && attempt.outcome !== 'ok') out.push(dot(), seg('fail-open', 'warn'));
  if (attempt.signal) {
    const header = signalHeaderName(attempt.signal);
    out.push(dot(), seg(signalWords(attempt.signal)));
    if (header !== null) out.push(seg(` (${header})`, 'muted'));
  }
  return out;
}

interface AttemptWidths {
  target: number;
  outcome: number;
  evidence: number;
  ms: number;
}

function usageLine(usage: Usage): ExplainedLine {
  const parts: [string, number | null][] = [
    ['in', usage.input_tokens],
    ['out', usage.output_tokens],
    ['cache read', usage.cache_read_tokens],
    ['cache write', usage.cache_write_tokens],
  ];
  const known = parts.filter(([, n]) => n !== null);
  const out: Segment[] = label('usage');
  if (known.length === 0) return [...out, seg('not reported', 'muted')];
  known.forEach(([name, n], i) => {
    if (i > 0) out.push(dot());
    out.push(seg(`${name} ${n}`));
  });
  return out;
}

function noAttemptWords(decision: DecisionEvent): string {
  if (decision.skipped) return 'none: a background request, skipped because every target was held back';
  if (decision.route === null) return 'none: the request named no model';
  if (decision.status === 404) return 'none: no route has this name';
  if (decision.status === 499) return 'none: the agent hung up before any attempt';
  return 'none were sent upstream';
}

export function explainDecision(decision: DecisionEvent, options: ExplainOptions = {}): ExplainedLine[] {
  const time = options.time ?? localDateTime;
  const lines: ExplainedLine[] = [];

  const request: Segment[] = [
    ...label('request'),
    seg(decision.request_id),
    seg(' at '),
    seg(time(decision.ts)),
    dot(),
    seg(decision.family),
  ];
  if (decision.stream) request.push(dot(), seg('streamed'));
  if (decision.client !== null) request.push(dot(), seg(`client ${decision.client}`));
  lines.push(request);

  const route: Segment[] = [...label('route'), seg(decision.route ?? '—', 'title')];
  if (decision.requested !== null && decision.requested !== decision.route)
    route.push(seg(` (asked for "${decision.requested}")`, 'muted'));
  lines.push(route);

  lines.push([
    ...label('agent'),
    seg(decision.agent ?? 'any'),
    dot(),
    seg(`lane ${decision.lane}`, decision.lane === 'background' ? 'info' : 'plain'),
    dot(),
    seg(`session ${decision.session ?? 'none'}`),
    dot(),
    seg(`balance ${decision.balance}`),
  ]);

  if (decision.chain.length === 0) lines.push([...label('chain'), seg('none (no route)', 'muted')]);
  else {
    lines.push([...label('chain'), seg('as ordered when the request started', 'muted')]);
    const nameWidth = Math.max(...decision.chain.map((c) => textWidth(`${c.seat}/${c.model}`)));
    for (const [i, entry] of decision.chain.entries()) lines.push(chainLine(entry, i + 1, nameWidth));
  }

  if (decision.attempts.length === 0) lines.push([...label('attempts'), seg(noAttemptWords(decision), 'muted')]);
  else {
    lines.push([...label('attempts'), seg('outcome · evidence · ms · signal', 'muted')]);
    const widths: AttemptWidths = {
      target: Math.max(...decision.attempts.map((a) => textWidth(`${a.seat}/${a.model}`))),
      outcome: Math.max(...decision.attempts.map((a) => textWidth(outcomeWord(a)))),
      evidence: Math.max(...decision.attempts.map((a) => textWidth(a.evidence ?? 'no evidence'))),
      ms: Math.max(...decision.attempts.map((a) => formatLatency(a.ms).length)),
    };
    for (const [i, attempt] of decision.attempts.entries()) lines.push(attemptLine(decision, attempt, i + 1, widths));
  }

  const statusTone: Tone = decision.status < 300 ? 'ok' : decision.status === 499 ? 'muted' : decision.status >= 500 ? 'bad' : 'warn';
  const served: Segment[] = [
    ...label('served'),
    decision.served_by === null ? seg('no upstream answer', 'muted') : seg(decision.served_by),
    dot(),
    seg(`status ${decision.status}`, statusTone),
    seg(` in ${formatLatency(decision.duration_ms)}`, 'muted'),
  ];
  if (decision.fail_open) served.push(dot(), seg('fail-open: every target was held back, the configured order was tried', 'warn'));
  lines.push(served);

  if (decision.usage !== null) lines.push(usageLine(decision.usage));
  // null: its target has no price (or a line from before decisions carried a cost): nothing to say
  if (typeof decision.cost === 'number')
    lines.push([...label('cost'), seg(options.currency === undefined ? String(decision.cost) : `${decision.cost} ${options.currency}`)]);
  return lines;
}

/** The same lines as plain text, for a printer without tones. */
export function explainDecisionText(decision: DecisionEvent, options: ExplainOptions = {}): string[] {
  return explainDecision(decision, options).map((l) => l.map((s) => s.text).join(''));
}
