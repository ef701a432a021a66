/**
 * Where a target's requests go: the seat's `base_url` joined with the inbound
 * path. Split once per seat at start so
 * the hot path only concatenates strings.
 */
export interface UpstreamBase {
  /** `scheme://host[:port]`, what the undici dispatcher pools connections by */
  readonly origin: string;
  /** the base URL's path without a trailing slash ('' for a bare host) */
  readonly prefix: string;
  /** the base path already ends in `/v1`, so the inbound `/v1` is not repeated */
  readonly endsInV1: boolean;
}

export function parseUpstreamBase(baseUrl: string): UpstreamBase {
  const url = new URL(baseUrl);
  const prefix = url.pathname.replace(/\/+$/, '');
  return { origin: url.origin, prefix, endsInV1: /\/v1$/.test(prefix) };
}

/** The upstream request path (with the inbound query string, unchanged). `inbound` starts with `/v1/`. */
export function upstreamPath(base: UpstreamBase, inbound: string): string {
  return base.endsInV1 ? base.prefix + inbound.slice(3) : base.prefix + inbound;
}

/** The full URL, for people and tests; the proxy itself uses `origin` + `upstreamPath`. */
export function joinUpstreamUrl(baseUrl: string, inbound: string): string {
  const base = parseUpstreamBase(baseUrl);
  return base.origin + upstreamPath(base, inbound);
}
