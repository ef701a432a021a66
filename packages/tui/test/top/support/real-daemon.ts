import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI_PATH, requireBuiltCli, spawnCli } from '../../../../daemon/test/helpers/cli-process.js';

/**
 * The real thing for end-to-end tests: a fake upstream (a real HTTP server in
 * the test process) and the daemon run by the built CLI (`routeplane serve
 * --config <tmpfile>`). Seat A is either an API key that answers 402, or a
 * Claude subscription that reports its 5-hour window on every answer and,
 * once its window is spent, answers 429 with the unified reset headers
 * (the bodies and headers a real subscription sends);
 * seat B answers 200.
 */
export const CLI = CLI_PATH;

export const assertBuilt = requireBuiltCli;

export interface FakeUpstream {
  readonly url: string;
  readonly requests: string[];
  /** the subscription seat's 5-hour window: used share, and whether it is spent (429 until its reset) */
  window: { utilization: number; spent: boolean; resetAt: number };
  close(): Promise<void>;
}

/** The unified headers a Claude subscription sends on every answer. */
function unifiedHeaders(window: FakeUpstream['window']): Record<string, string> {
  const status = window.spent ? 'rejected' : window.utilization >= 0.8 ? 'allowed_warning' : 'allowed';
  const reset = String(Math.round(window.resetAt / 1000));
  return {
    'anthropic-ratelimit-unified-status': status,
    'anthropic-ratelimit-unified-reset': reset,
    'anthropic-ratelimit-unified-representative-claim': 'five_hour',
    'anthropic-ratelimit-unified-5h-utilization': window.utilization.toFixed(2),
    'anthropic-ratelimit-unified-5h-reset': reset,
    'anthropic-ratelimit-unified-5h-status': status,
  };
}

export async function startFakeUpstream(options: { seatA?: 'billing' | 'subscription' } = {}): Promise<FakeUpstream> {
  const requests: string[] = [];
  const upstream = {
    window: { utilization: 0.62, spent: false, resetAt: Date.now() + (2 * 60 + 14) * 60_000 + 30_000 },
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      requests.push(req.url ?? '');
      const subscription = options.seatA === 'subscription' && req.url?.startsWith('/seat-a/');
      if (req.url?.startsWith('/seat-a/') && !subscription) {
        res.writeHead(402, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ type: 'error', error: { type: 'billing_error', message: 'credit balance too low' } }));
        return;
      }
      if (subscription && upstream.window.spent) {
        res.writeHead(429, { 'content-type': 'application/json', ...unifiedHeaders(upstream.window) });
        res.end(
          JSON.stringify({
            type: 'error',
            error: { type: 'rate_limit_error', message: "This request would exceed your account's rate limit. Please try again later." },
            request_id: 'req_e2e_window',
          }),
        );
        return;
      }
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as { model?: string };
      res.writeHead(200, { 'content-type': 'application/json', ...(subscription ? unifiedHeaders(upstream.window) : {}) });
      res.end(
        JSON.stringify({
          id: 'msg_e2e',
          type: 'message',
          role: 'assistant',
          model: body.model,
          content: [{ type: 'text', text: 'ok' }],
          stop_reason: 'end_turn',
          usage: { input_tokens: 1, output_tokens: 1 },
        }),
      );
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    get window() {
      return upstream.window;
    },
    set window(w) {
      upstream.window = w;
    },
    close: () =>
      new Promise((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}

export interface DaemonSetup {
  readonly dir: string;
  readonly configPath: string;
  readonly socketPath: string;
  readonly env: NodeJS.ProcessEnv;
  remove(): void;
}

/** A config with seat `max-a` (402s) before `team-b` (200s) on route `sonnet`, influence on. */
export function writeDaemonConfig(upstreamUrl: string, cooldownSecs = 120): DaemonSetup {
  const dir = mkdtempSync(join(tmpdir(), 'rp-top-e2e-'));
  const socketPath = join(dir, 'control.sock');
  const configPath = join(dir, 'routeplane.yaml');
  writeFileSync(
    configPath,
    [
      'server:',
      '  listen: 127.0.0.1:0',
      'control:',
      `  socket: ${socketPath}`,
      'decision_log:',
      '  path: false',
      'seats:',
      '  - id: max-a',
      '    provider: anthropic',
      `    base_url: ${upstreamUrl}/seat-a`,
      '    api_key_env: E2E_KEY_A',
      '  - id: team-b',
      '    provider: anthropic',
      `    base_url: ${upstreamUrl}/seat-b`,
      '    api_key_env: E2E_KEY_B',
      'routes:',
      '  - model: sonnet',
      '    chain:',
      '      - { seat: max-a, model: claude-sonnet-4-5 }',
      '      - { seat: team-b, model: claude-sonnet-4-5 }',
      'influence:',
      '  enabled: true',
      `  cooldown_secs: ${cooldownSecs}`,
      '',
    ].join('\n'),
  );
  return {
    dir,
    configPath,
    socketPath,
    env: { ...process.env, E2E_KEY_A: 'sk-e2e-a', E2E_KEY_B: 'sk-e2e-b' },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

export interface RunningServe {
  readonly child: ChildProcess;
  readonly url: string;
  /** Date.now() when the daemon said it was listening */
  readonly listeningAt: number;
  stop(): Promise<void>;
}

/** `routeplane serve --config …`, resolved once it prints its listening line. */
export async function startServe(setup: DaemonSetup): Promise<RunningServe> {
  const serve = spawnCli(['serve', '--config', setup.configPath], setup.env, setup.dir);
  const { url } = await serve.listening();
  return {
    child: serve.child,
    url,
    listeningAt: Date.now(),
    stop: async () => {
      if (serve.running) serve.child.kill('SIGTERM');
      await serve.exited;
    },
  };
}

/** One Anthropic request for route `sonnet` through the daemon. */
export async function askSonnet(daemonUrl: string): Promise<Response> {
  return fetch(`${daemonUrl}/v1/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': 'agent-key', 'anthropic-version': '2023-06-01' },
    body: JSON.stringify({ model: 'sonnet', max_tokens: 8, messages: [{ role: 'user', content: 'hi' }] }),
  });
}
