// The real daemon, from the BUILT package (packages/daemon/dist), as a user
// runs it: influence on, decision log on (in the bench's temp dir), control
// socket listening. The bench's subscriber process attaches over the socket.
//
// Switches for A/B cells (two daemons side by side, one with the switch):
//   BENCH_DAEMON_DIST=DIR   another build of the daemon (a candidate change)
//   BENCH_BALANCE=ordered   the Claude Code route ordered instead of spread
//   BENCH_NO_USAGE=1        no token usage read from bodies, no usage windows
//                           from headers, no metrics counters: what those cost
//                           (or a list of parts: tap, observe, metrics)
//   BENCH_SHARED_REDIS=URL  breakers shared through this Redis
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { answerUsage } from './child-usage.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const upstream = process.env.BENCH_UPSTREAM ?? '';
const dir = process.env.BENCH_DIR ?? '';

const daemonDist = process.env.BENCH_DAEMON_DIST || join(root, 'packages/daemon/dist');
const distModule = (path) => import(pathToFileURL(join(daemonDist, path)).href);
const { startDaemon } = await distModule('index.js');
const { parseConfig, formatIssue } = await import(pathToFileURL(join(root, 'packages/shared/dist/index.js')).href);

// Two targets per route, like a user with two seats: the first serves, the
// second is there so ordering works on a real chain. `sonnet` and `gpt` are
// the README's config for Claude Code and Codex ("Point your agents at it"):
// Claude Code's dated model id reaches `sonnet` through its alias and its
// sessions spread over two seats.
const config = {
  server: { listen: '127.0.0.1:0' },
  control: { socket: join(dir, 'control.sock') },
  decision_log: { path: join(dir, 'decisions.ndjson'), max_mb: 64 },
  seats: [
    { id: 'oai-main', provider: 'openai', base_url: upstream, api_key_env: 'BENCH_KEY_A' },
    { id: 'oai-spare', provider: 'openai', base_url: upstream, api_key_env: 'BENCH_KEY_B' },
    { id: 'ant-main', provider: 'anthropic', base_url: upstream, api_key_env: 'BENCH_KEY_C' },
    { id: 'ant-spare', provider: 'anthropic', base_url: upstream, api_key_env: 'BENCH_KEY_D' },
  ],
  routes: [
    {
      model: 'bench-gpt',
      chain: [
        { seat: 'oai-main', model: 'gpt-mock' },
        { seat: 'oai-spare', model: 'gpt-mock-2' },
      ],
    },
    {
      model: 'bench-claude',
      chain: [
        { seat: 'ant-main', model: 'claude-mock' },
        { seat: 'ant-spare', model: 'claude-mock-2' },
      ],
    },
    {
      model: 'sonnet',
      balance: process.env.BENCH_BALANCE === 'ordered' ? 'ordered' : 'spread',
      chain: [
        { seat: 'ant-main', model: 'claude-sonnet-4-5' },
        { seat: 'ant-spare', model: 'claude-sonnet-4-5' },
      ],
    },
    {
      model: 'gpt',
      chain: [
        { seat: 'oai-main', model: 'gpt-5' },
        { seat: 'oai-spare', model: 'gpt-5' },
      ],
    },
  ],
  aliases: { 'claude-sonnet-*': 'sonnet' },
  influence: {
    enabled: true,
    // BENCH_SHARED_REDIS: share breakers through this Redis (the shared-state figures)
    ...(process.env.BENCH_SHARED_REDIS
      ? { shared: { redis_url: process.env.BENCH_SHARED_REDIS, key_prefix: process.env.BENCH_SHARED_PREFIX || 'routeplane-bench:' } }
      : {}),
  },
};
const env = { ...process.env, BENCH_KEY_A: 'sk-bench-a', BENCH_KEY_B: 'sk-bench-b', BENCH_KEY_C: 'sk-bench-c', BENCH_KEY_D: 'sk-bench-d' };

const parsed = parseConfig(JSON.stringify(config), join(dir, 'routeplane.json'), env);
if (!parsed.ok) {
  process.send({ type: 'failed', message: parsed.issues.map(formatIssue).join('\n') });
  process.exit(1);
}
const noUsage = new Set(
  process.env.BENCH_NO_USAGE === '1' ? ['tap', 'observe', 'metrics'] : (process.env.BENCH_NO_USAGE ?? '').split(',').filter(Boolean),
);
try {
  await withoutUsage(noUsage);
  const daemon = await startDaemon(parsed.config, { env });
  // the metrics' decision listener (counters, the duration histogram) leaves the bus
  if (noUsage.has('metrics')) daemon.context.metrics.stop();
  process.send({ type: 'ready', url: daemon.url, socketPath: daemon.socketPath });
  answerUsage(() => daemon.close(1000));
} catch (err) {
  process.send({ type: 'failed', message: err instanceof Error ? (err.stack ?? err.message) : String(err) });
  process.exit(1);
}

/**
 * The B side of "what do usage and metrics cost": the built modules are the
 * ones the daemon itself imports (same URLs, same instances), so replacing
 * two prototype methods takes the token-usage tap (every served chunk kept,
 * read at the end) and the per-answer observer (usage windows from headers,
 * the first-byte histogram) off the request path. Fails loudly when the
 * daemon's shape changed, rather than measure nothing.
 */
async function withoutUsage(parts) {
  if (!parts.has('tap') && !parts.has('observe')) return;
  const { UsageTap } = await distModule('usage/usage-tap.js');
  const { ProxyHandler } = await distModule('http/proxy-handler.js');
  for (const [owner, name] of [
    [UsageTap?.prototype, 'push'],
    [UsageTap?.prototype, 'usage'],
    [ProxyHandler?.prototype, 'observe'],
  ]) {
    if (typeof owner?.[name] !== 'function') throw new Error(`BENCH_NO_USAGE: the daemon build has no ${name} to switch off`);
  }
  if (parts.has('tap')) {
    UsageTap.prototype.push = () => {};
    UsageTap.prototype.usage = () => null;
  }
  if (parts.has('observe')) ProxyHandler.prototype.observe = () => {};
}
