/**
 * Where a target's requests go: the seat's `base_url`, then the inbound path
 * with its leading `/v1` replaced by the seat's `api_path` (default `/v1`),
 * which is not repeated when the base URL's path already ends in it
 * (docs/seats.md, `api_path`). Split once per seat at start so the hot path
 * only concatenates strings.
 */
export interface UpstreamBase {
  /** `scheme://host[:port]`, what the undici dispatcher pools connections by */
  readonly origin: string;
  /** the base URL's path without a trailing slash, with `api_path` after it unless it already ends in it */
  readonly prefix: string;
}

export function parseUpstreamBase(baseUrl: string, apiPath = '/v1'): UpstreamBase {
  const url = new URL(baseUrl);
  const path = url.pathname.replace(/\/+$/, '');
  return { origin: url.origin, prefix: path.endsWith(apiPath) ? path : path + apiPath };
}

/** The upstream request path (with the inbound query string, unchanged). `inbound` starts with `/v1/`. */
export function upstreamPath(base: UpstreamBase, inbound: string): string {
  return base.prefix + inbound.slice(3);
}

/** The full URL, for people and tests; the proxy itself uses `origin` + `upstreamPath`. */
export function joinUpstreamUrl(baseUrl: string, inbound: string, apiPath = '/v1'): string {
  const base = parseUpstreamBase(baseUrl, apiPath);
  return base.origin + upstreamPath(base, inbound);
}
