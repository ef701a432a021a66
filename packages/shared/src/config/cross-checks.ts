import type { ConfigView } from './config-view.js';
import type { RawIssue } from './yaml-document.js';

/**
 * What the schema alone cannot see: references between seats and routes,
 * names that must be unique, and keys that only make sense together. Each
 * check reads only what is there, so they also run on a file that failed
 * the schema elsewhere.
 */
export function crossCheck(config: ConfigView): RawIssue[] {
  return [
    ...uniqueSeats(config),
    ...uniqueRoutes(config),
    ...chainSeatsDeclared(config),
    ...cooldownFloor(config),
    ...tokenOffLoopback(config),
    // The policy checks (an alias equal to a route name, …) live in
    // policy-checks.ts and join in load.ts once the schema passed: they read its defaults.
  ];
}

function uniqueSeats(config: ConfigView): RawIssue[] {
  const issues: RawIssue[] = [];
  const seen = new Set<string>();
  config.seats?.forEach((seat, i) => {
    if (seat?.id === undefined) return;
    if (seen.has(seat.id)) issues.push({ path: ['seats', i, 'id'], message: `duplicate seat id "${seat.id}"` });
    seen.add(seat.id);
  });
  return issues;
}

function uniqueRoutes(config: ConfigView): RawIssue[] {
  const issues: RawIssue[] = [];
  const seen = new Set<string>();
  config.routes?.forEach((route, i) => {
    if (route?.model === undefined) return;
    if (seen.has(route.model)) issues.push({ path: ['routes', i, 'model'], message: `duplicate route "${route.model}"` });
    seen.add(route.model);
  });
  return issues;
}

function chainSeatsDeclared(config: ConfigView): RawIssue[] {
  const issues: RawIssue[] = [];
  // A seat whose entry failed the schema elsewhere still declares its id.
  const declared = new Set(config.seats?.flatMap((seat) => (seat?.id === undefined ? [] : [seat.id])));
  const list = declared.size === 0 ? 'none' : [...declared].join(', ');
  config.routes?.forEach((route, i) => {
    route?.chain?.forEach((target, j) => {
      if (target?.seat === undefined || declared.has(target.seat)) return;
      issues.push({ path: ['routes', i, 'chain', j, 'seat'], message: `unknown seat "${target.seat}" (declared: ${list})` });
    });
  });
  return issues;
}

function cooldownFloor(config: ConfigView): RawIssue[] {
  const max = config.influence?.max_cooldown_secs;
  if (max === undefined || max >= 1) return [];
  return [{ path: ['influence', 'max_cooldown_secs'], message: 'must be at least 1 (the rate-limit floor)' }];
}

function tokenOffLoopback(config: ConfigView): RawIssue[] {
  const listen = config.server?.listen;
  if (listen === undefined || config.server?.auth_token_env !== null) return [];
  // agents carry tokens of their own: with them, every request needs one
  if ((config.server.agents?.length ?? 0) > 0) return [];
  const host = listen.slice(0, listen.lastIndexOf(':'));
  if (isLoopback(host)) return [];
  return [{ path: ['server', 'auth_token_env'], message: `required when listen (${listen}) is not a loopback address` }];
}

/** 127.0.0.0/8, ::1 and localhost. */
export function isLoopback(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}
