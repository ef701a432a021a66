// The real daemon, from the BUILT package (packages/daemon/dist), as a user
// runs it: influence on, decision log on (in the bench's temp dir), control
// socket listening. The bench's subscriber process attaches over the socket.
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { answerUsage } from './child-usage.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const upstream = process.env.BENCH_UPSTREAM ?? '';
const dir = process.env.BENCH_DIR ?? '';

// BENCH_DAEMON_DIST: another build of the daemon to measure (a candidate change); default the built package.
const daemonDist = process.env.BENCH_DAEMON_DIST || join(root, 'packages/daemon/dist');
const { startDaemon, startHeapTuning } = await import(pathToFileURL(join(daemonDist, 'index.js')).href);
const { parseConfig, formatIssue } = await import(pathToFileURL(join(root, 'packages/shared/dist/index.js')).href);

// Two targets per route, like a user with two seats: the first serves, the
// second is there so ordering works on a real chain.
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
  ],
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
try {
  const daemon = await startDaemon(parsed.config, { env });
  // as `routeplane serve` does (a daemon build from before it existed has none)
  if (startHeapTuning) startHeapTuning(() => daemon.context.received.bodyBytes);
  process.send({ type: 'ready', url: daemon.url, socketPath: daemon.socketPath });
  answerUsage(() => daemon.close(1000));
} catch (err) {
  process.send({ type: 'failed', message: err instanceof Error ? (err.stack ?? err.message) : String(err) });
  process.exit(1);
}
