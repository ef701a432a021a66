import { type AnswerPlan, createStreamTranslator, type StreamOutcome, type StreamTranslator } from '../../../src/translate/index.js';

export const CREATED = 1_767_225_600;

function every(n: number): (bytes: Buffer) => Buffer[] {
  return (bytes) => {
    const out: Buffer[] = [];
    for (let i = 0; i < bytes.length; i += n) out.push(bytes.subarray(i, i + n));
    return out;
  };
}

/** Cut after the first byte of every multi-byte character and between every CR and its LF. */
function awkward(bytes: Buffer): Buffer[] {
  const out: Buffer[] = [];
  let from = 0;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (b >= 0xc0 || (b === 0x0d && bytes[i + 1] === 0x0a)) {
      out.push(bytes.subarray(from, i + 1));
      from = i + 1;
    }
  }
  out.push(bytes.subarray(from));
  return out;
}

/** The ways the upstream's bytes are cut for every stream test; the agent's bytes must not depend on them. */
export const SPLITS: ReadonlyArray<{ name: string; split: (bytes: Buffer) => Buffer[] }> = [
  { name: 'one chunk', split: (bytes) => [bytes] },
  { name: 'byte by byte', split: every(1) },
  { name: 'every 7 bytes', split: every(7) },
  { name: 'every 61 bytes', split: every(61) },
  { name: 'inside characters and line ends', split: awkward },
];

export interface Fed {
  /** the agent's bytes, in the pieces `push` and `finish` returned */
  chunks: Buffer[];
  bytes: Buffer;
  outcome: StreamOutcome;
  translator: StreamTranslator;
}

/** Every upstream chunk through `push`, then `finish`; a cut is ended with `fail` as the proxy ends it. */
export function feed(plan: AnswerPlan, upstream: readonly Buffer[], cutMessage = 'the upstream stream was cut'): Fed {
  const translator = createStreamTranslator(plan, CREATED);
  const chunks: Buffer[] = [];
  for (const chunk of upstream) {
    const out = translator.push(chunk);
    if (out.length > 0) chunks.push(out);
  }
  const end = translator.finish();
  if (end.bytes.length > 0) chunks.push(end.bytes);
  if (end.outcome.end === 'cut') {
    const failed = translator.fail(cutMessage);
    if (failed.length > 0) chunks.push(failed);
  }
  return { chunks, bytes: Buffer.concat(chunks), outcome: end.outcome, translator };
}

/** `feed` once per split; the agent's bytes must be the same every time. Returns the run that gave the agent the most pieces. */
export function feedEverySplit(plan: AnswerPlan, upstream: Buffer): Fed {
  let first: Fed | null = null;
  let most: Fed | null = null;
  for (const { name, split } of SPLITS) {
    const fed = feed(plan, split(upstream));
    if (first === null) first = fed;
    else if (!fed.bytes.equals(first.bytes) || fed.outcome.end !== first.outcome.end) {
      throw new Error(`fed ${name}, the agent's bytes differ from one chunk's:\n${fed.bytes.toString()}\n---\n${first.bytes.toString()}`);
    }
    if (most === null || fed.chunks.length > most.chunks.length) most = fed;
  }
  return most!;
}

export function plan(
  agentWire: AnswerPlan['agentWire'],
  upstreamWire: AnswerPlan['upstreamWire'],
  over: Partial<AnswerPlan> = {},
): AnswerPlan {
  return { agentWire, upstreamWire, agentStream: true, upstreamStream: true, includeUsage: true, declaredTools: null, ...over };
}
