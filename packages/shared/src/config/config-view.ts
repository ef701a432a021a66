/**
 * The config as the cross-checks and warnings read it: every field may be
 * missing, because they also run on the parts of an invalid file that did
 * pass (so `config check` reports every problem in one run), and a value
 * that failed the schema is simply absent. A valid `Config` is one too.
 *
 * Keys that only some schema versions have (aliases, agents, state_file) are
 * listed here as optional, so the checks that read them need no change when
 * the schema gains them.
 */
export interface ConfigView {
  server?: {
    listen?: string;
    auth_token_env?: string | null;
    agents?: Array<AgentView | undefined>;
  };
  seats?: Array<SeatView | undefined>;
  routes?: Array<RouteView | undefined>;
  aliases?: Record<string, string | undefined>;
  influence?: {
    enabled?: boolean;
    max_cooldown_secs?: number;
    state_file?: string | null;
  };
  notify?: {
    command?: Array<string | undefined> | null;
    webhook?: string | null;
  } | null;
}

export interface SeatView {
  id?: string;
  provider?: 'anthropic' | 'openai';
  auth?: 'x-api-key' | 'bearer' | 'passthrough' | 'none';
  api_key_env?: string;
  headers?: Record<string, string | { env?: string } | undefined>;
}

export interface RouteView {
  model?: string;
  chain?: Array<{ seat?: string; model?: string } | undefined>;
}

export interface AgentView {
  id?: string;
  token_env?: string;
  allow?: Array<string | undefined>;
  deny?: Array<string | undefined>;
}
