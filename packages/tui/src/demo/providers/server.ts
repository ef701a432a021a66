import { setMaxListeners } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import type { ScenarioClock } from '../clock.js';
import { Random } from '../random.js';
import type { Pacing, ScenarioSeat } from '../scenario/schema.js';
import { behaviourAt, type Behaviour } from '../scenario/timeline.js';
import { anthropicWire } from './anthropic-wire.js';
import { openaiWire } from './openai-wire.js';
import { estimateTokens, replyTokens } from './text.js';
import type { ReplyMeta } from './wire.js';
import { pause, readJson, refuse, requestIdHeader } from './reply-io.js';
import { refusal, type Trouble } from './signals.js';
import { usageHeaders } from './usage-headers.js';
import { usageAt } from '../scenario/usage-curve.js';

/** Real providers batch tokens into frames; so do we, so a fast --speed does not flood the loop. */
const MIN_FRAME_MS = 40;

export interface SimulatedSeatOptions {
  seat: ScenarioSeat;
  /** the fake key this seat accepts (never printed) */
  key: string;
  clock: ScenarioClock;
  pacing: Pacing;
  repeatEvery: number | null;
  seed: number;
}

export interface SimulatedSeat {
  readonly id: string;
  /** what a routeplane.yaml `base_url` should say for this seat */
  readonly baseUrl: string;
  /** responses by HTTP status, for tests and the summary */
  readonly answered: ReadonlyMap<number, number>;
  close(): Promise<void>;
}

/**
 * One simulated provider account: a real HTTP server on 127.0.0.1 speaking its
 * family's wire format, whose answers follow the seat's scenario timeline and
 * carry the real providers' signals (./signals.ts) and, with a usage curve,
 * their usage headers on every answer (./usage-headers.ts).
 */
export async function startSimulatedSeat(opts: SimulatedSeatOptions): Promise<SimulatedSeat> {
  const wire = opts.seat.provider === 'anthropic' ? anthropicWire : openaiWire;
  const random = new Random(opts.seed);
  const answered = new Map<number, number>();
  const stopping = new AbortController();
  // Every in-flight request listens for the seat closing; that is by design, not a leak.
  setMaxListeners(0, stopping.signal);

  const server = createServer((req, res) => {
    handle(req, res).catch(() => res.destroy());
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const done = new AbortController();
    const onGone = () => done.abort();
    res.once('close', onGone);
    stopping.signal.addEventListener('abort', onGone, { once: true });
    try {
      const outcome = await answer(req, res, done.signal);
      if (outcome !== null) answered.set(outcome, (answered.get(outcome) ?? 0) + 1);
    } finally {
      stopping.signal.removeEventListener('abort', onGone);
    }
  }

  /** Answers one request; the status sent, or null when the caller went away first. */
  async function answer(req: IncomingMessage, res: ServerResponse, gone: AbortSignal): Promise<number | null> {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method !== 'POST' || path !== wire.path) {
      req.resume();
      return refuse(res, wire, 'not_found', 404, `no route for ${req.method} ${path} on this simulated ${wire.family} seat`);
    }
    const authProblem = wire.authProblem(req.headers, opts.key);
    if (authProblem !== null) {
      req.resume();
      return refuse(res, wire, 'auth', 401, authProblem);
    }
    const headerProblem = wire.headerProblem(req.headers);
    if (headerProblem !== null) {
      req.resume();
      return refuse(res, wire, 'bad_request', 400, headerProblem);
    }
    const body = await readJson(req);
    if (body === null || typeof body.model !== 'string') {
      return refuse(res, wire, 'bad_request', 400, 'the body must be a JSON object with a string "model"');
    }
    if (!opts.seat.models.includes(body.model)) {
      return refuse(res, wire, 'not_found', 404, `model: ${body.model} (this seat serves ${opts.seat.models.join(', ')})`);
    }

    const behaviour = behaviourAt(opts.seat, body.model, opts.clock.seconds(), opts.repeatEvery);
    if (behaviour.kind !== 'ok' && behaviour.kind !== 'slow') {
      if (!(await pause(opts.clock.realMs(random.between(opts.pacing.error_secs)), gone))) return null;
      return refuseFor(res, behaviour);
    }

    const meta: ReplyMeta = {
      id: wire.family === 'anthropic' ? `msg_demo_${randomBytes(9).toString('hex')}` : `chatcmpl-demo${randomBytes(9).toString('hex')}`,
      model: body.model,
      promptTokens: estimateTokens(JSON.stringify(body.messages ?? '')),
    };
    const maxTokens = typeof body.max_tokens === 'number' && body.max_tokens > 0 ? body.max_tokens : Infinity;
    const tokens = replyTokens(random, Math.min(random.int(opts.pacing.reply_tokens), maxTokens));
    const tokenMs = opts.clock.realMs(random.between(opts.pacing.token_secs) * behaviour.slowFactor);
    const firstMs = opts.clock.realMs(random.between(opts.pacing.first_token_secs) * behaviour.slowFactor);

    if (body.stream !== true) {
      if (!(await pause(firstMs + tokenMs * tokens.length, gone))) return null;
      // the window as it is when the answer goes out: an answer that was slow to come must not report an older one
      res.writeHead(200, { 'content-type': 'application/json', ...requestIdHeader(wire, meta), ...usageNow() });
      res.end(wire.json(meta, tokens));
      return 200;
    }

    if (!(await pause(firstMs, gone))) return null;
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      ...requestIdHeader(wire, meta),
      ...usageNow(),
    });
    res.write(wire.streamHead(meta));
    const perFrame = Math.max(1, Math.ceil(MIN_FRAME_MS / Math.max(tokenMs, 0.001)));
    for (let i = 0; i < tokens.length; i += perFrame) {
      const frame = tokens.slice(i, i + perFrame);
      if (!(await pause(tokenMs * frame.length, gone))) return null;
      res.write(wire.streamDelta(meta, frame.join('')));
    }
    res.end(wire.streamTail(meta, tokens.length, body));
    return 200;
  }

  /** The usage headers of an answer now (none without a usage curve). */
  function usageNow(): Record<string, string> {
    const curve = opts.seat.usage;
    if (!curve) return {};
    const now = usageAt(curve, opts.clock.seconds(), opts.repeatEvery);
    const resetInSecs = opts.clock.realSecs(now.resetInSecs);
    return usageHeaders(wire.family, {
      window: curve.window,
      utilization: now.utilization,
      resetAt: Math.ceil(Date.now() / 1000 + resetInSecs),
      resetInSecs,
    });
  }

  function refuseFor(res: ServerResponse, behaviour: Exclude<Behaviour, { kind: 'ok' | 'slow' }>): number {
    const requestId = `req_${randomBytes(12).toString('hex')}`;
    const answer = refusal(wire.family, trouble(behaviour), requestId);
    // a refusal carries the usage headers too (the trouble's own headers win: a spent window says rejected)
    res.writeHead(answer.status, { ...usageNow(), ...answer.headers, ...(wire.family === 'anthropic' ? { 'request-id': requestId } : {}) });
    res.end(answer.body);
    return answer.status;
  }

  /** The scenario's trouble in real time: Retry-After and resets are what a daemon should see. */
  function trouble(behaviour: Exclude<Behaviour, { kind: 'ok' | 'slow' }>): Trouble {
    switch (behaviour.kind) {
      case 'credit_out':
        return { kind: 'credit_out' };
      case 'server_error':
        return { kind: 'server_error', status: behaviour.status };
      case 'rate_limited':
        // rounded up: a provider never tells you to come back before its window resets
        return { kind: 'rate_limited', retryAfterSecs: opts.clock.realSecs(behaviour.retryAfterSecs) };
      case 'quota_out': {
        const resetInSecs = opts.clock.realSecs(behaviour.resetInSecs);
        return { kind: 'quota_out', resetInSecs, resetAt: Math.ceil(Date.now() / 1000 + resetInSecs) };
      }
    }
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;

  return {
    id: opts.seat.id,
    // OpenAI-compatible base URLs conventionally end in /v1; routeplane must not repeat it.
    baseUrl: wire.family === 'openai' ? `${origin}/v1` : origin,
    answered,
    close() {
      stopping.abort();
      return new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
