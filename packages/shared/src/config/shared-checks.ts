import type { Env } from './env.js';
import { unsetIssue } from './env-checks.js';
import { readRedisUrl } from './redis-url.js';
import type { Config } from './schema.js';
import type { RawIssue } from './yaml-document.js';

/**
 * Cross-checks of `influence.shared` that one key's
 * schema cannot see. No message ever repeats the URL or a password.
 */
export function sharedChecks(config: Config): RawIssue[] {
  const shared = config.influence.shared;
  if (shared === null) return [];
  const issues: RawIssue[] = [];
  const url = readRedisUrl(shared.redis_url);
  if (!url.ok) issues.push({ path: ['influence', 'shared', 'redis_url'], message: url.message });
  if (config.influence.state_file !== null) {
    issues.push({
      path: ['influence', 'state_file'],
      message: 'cannot be used together with influence.shared: shared state already outlives any one daemon',
    });
  }
  return issues;
}

/** The password variable, when one is named, is set. Its value is never written. */
export function sharedEnvChecks(config: Config, env: Env): RawIssue[] {
  const name = config.influence.shared?.password_env ?? null;
  if (name === null || env[name]) return [];
  return [unsetIssue(['influence', 'shared', 'password_env'], name)];
}
