import { request, type Agent as HttpAgent } from 'node:http';
import { judgeBody, type Completion } from './consume.js';

export type Family = 'anthropic' | 'openai';

export interface AgentRequest {
  family: Family;
  route: string;
  stream: boolean;
  prompt: string;
}

/** What one agent got back for one request: always exactly one of these per request sent. */
export type AgentOutcome =
  | {
      kind: 'response';
      status: number;
      completion: Completion;
      requestId: string | null;
      servedBy: string | null;
      attempts: number | null;
      ms: number;
    }
  /** no HTTP response at all (connection refused/reset) */
  | { kind: 'transport_error'; message: string; ms: number }
  /** the demo stopped and cut the request short */
  | { kind: 'aborted'; ms: number };

// The agent's own credential when it has no login. Routeplane must never
// forward it: the simulated seats only accept their own keys, so a leak would
// show up as 401s.
const AGENT_KEY = 'demo-agent-key-not-a-seat-key';

/**
 * What an agent sends as its own credentials: its login (`Authorization:
 * Bearer …`, as a logged-in Claude Code or Codex does) when a seat of the
 * family passes it through, else a key of its own the daemon must not forward.
 */
export function agentCredentials(family: Family, login: string | null): Record<string, string> {
  if (login !== null) return { authorization: `Bearer ${login}` };
  return family === 'anthropic' ? { 'x-api-key': AGENT_KEY } : { authorization: `Bearer ${AGENT_KEY}` };
}

/** The body an SDK would send for this family. */
export function agentBody(req: AgentRequest): Record<string, unknown> {
  const messages = [{ role: 'user', content: req.prompt }];
  if (req.family === 'anthropic') return { model: req.route, max_tokens: 1024, stream: req.stream, messages };
  return { model: req.route, stream: req.stream, ...(req.stream ? { stream_options: { include_usage: true } } : {}), messages };
}

/**
 * Sends one request to routeplane over real HTTP and reads the whole answer,
 * streamed or not, the way an SDK would.
 */
export function sendAgentRequest(
  baseUrl: string,
  req: AgentRequest,
  httpAgent: HttpAgent,
  signal: AbortSignal,
  agentName: string,
  login: string | null = null,
): Promise<AgentOutcome> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const path = req.family === 'anthropic' ? '/v1/messages' : '/v1/chat/completions';
  const payload = JSON.stringify(agentBody(req));
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(payload)),
    'user-agent': `routeplane-demo/${agentName}`,
    ...agentCredentials(req.family, login),
    ...(req.family === 'anthropic' ? { 'anthropic-version': '2023-06-01' } : {}),
    ...(req.stream ? { accept: 'text/event-stream' } : {}),
  };

  return new Promise<AgentOutcome>((resolve) => {
    let settled = false;
    const settle = (outcome: AgentOutcome) => {
      if (settled) return;
      settled = true;
      resolve(outcome);
    };
    const outgoing = request(new URL(path, baseUrl), { method: 'POST', headers, agent: httpAgent, signal }, (res) => {
      const chunks: Buffer[] = [];
      const answered = (completion: Completion | null) => {
        const status = res.statusCode ?? 0;
        const body = Buffer.concat(chunks).toString('utf8');
        settle({
          kind: 'response',
          status,
          // given when the body was cut short; otherwise judged from the whole body
          completion: completion ?? judgeBody(req.family, status, req.stream, body),
          requestId: header(res.headers['x-routeplane-request-id']),
          servedBy: header(res.headers['x-routeplane-target']),
          attempts: numberOrNull(header(res.headers['x-routeplane-attempts'])),
          ms: elapsed(),
        });
      };
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => answered(null));
      // Headers arrived, so this is the one response; a body cut short is judged truncated.
      res.on('error', () => (signal.aborted ? settle({ kind: 'aborted', ms: elapsed() }) : answered('truncated')));
      res.on('close', () => {
        if (!res.complete) signal.aborted ? settle({ kind: 'aborted', ms: elapsed() }) : answered('truncated');
      });
    });
    outgoing.on('error', (err) =>
      settle(signal.aborted ? { kind: 'aborted', ms: elapsed() } : { kind: 'transport_error', message: err.message, ms: elapsed() }),
    );
    outgoing.end(payload);
  });
}

function header(value: string | string[] | undefined): string | null {
  return Array.isArray(value) ? (value[0] ?? null) : (value ?? null);
}

function numberOrNull(value: string | null): number | null {
  if (value === null) return null;
  const n = Number(value);
  return Number.isFinite(n) ? n : null;
}
