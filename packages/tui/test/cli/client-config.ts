import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Writes a routeplane.yaml (JSON is YAML) that points a client at a socket
 * and a decision log. The seats name key variables the CLI's environment
 * does not have: a client must not need the keys.
 */
export function writeClientConfig(
  dir: string,
  opts: { socket?: string | null; decisionLog?: string | false | null; name?: string },
): string {
  const file = join(dir, opts.name ?? 'routeplane.yaml');
  const config = {
    control: { socket: opts.socket ?? null },
    decision_log: { path: opts.decisionLog === undefined ? null : opts.decisionLog },
    seats: [{ id: 'max-a', provider: 'anthropic', base_url: 'http://127.0.0.1:9', api_key_env: 'RP_KEY_NOT_IN_THIS_SHELL' }],
    routes: [{ model: 'sonnet', chain: [{ seat: 'max-a', model: 'sonnet-x' }] }],
  };
  writeFileSync(file, JSON.stringify(config, null, 2));
  return file;
}
