/**
 * One line for every key of routeplane.yaml, by its path (`seats[].api_key_env`:
 * `[]` is any entry of a list, `<name>` any key of a mapping whose keys are
 * the person's own). `docs/config.md` is generated from the schema and these
 * lines (`pnpm docs:config`); a test fails, naming the path, when a key of
 * the schema has no line here or a line here names no key. Kept apart from
 * the schema so that adding a key touches the schema in one place and this
 * table in another.
 */
export const KEY_DOCS: Readonly<Record<string, string>> = {
  server: 'Where agents reach the daemon, and who may.',
  'server.listen': 'The host:port the HTTP proxy listens on; port 0 picks a free one (printed on start).',
  'server.auth_token_env':
    'The environment variable holding a token agents must send (`Authorization: Bearer …` or `x-api-key`); required when `listen` is not a loopback address.',
  'server.agents':
    'Agents with tokens of their own, each limited to some routes and given a default lane; with any set, every request needs a token, also on loopback.',
  'server.agents[].id': "The agent's name, recorded in its decisions.",
  'server.agents[].token_env': "The environment variable holding this agent's token; tokens must differ.",
  'server.agents[].allow': 'The only routes this agent may use (checked after aliases); empty: every route.',
  'server.agents[].deny': 'Routes this agent may never use (checked after aliases).',
  'server.agents[].lane': "The lane of this agent's requests when the `x-routeplane-lane` header names none.",
  'server.body_limit_mb': 'The largest request body accepted, in MB; a bigger one is answered 413.',
  control: 'The control socket `top`, `status`, `logs -f` and the other client commands talk to.',
  'control.socket':
    "The socket's path; null: `$XDG_RUNTIME_DIR/routeplane/control.sock`, else `~/.routeplane/control.sock`. Its directory is made 0700.",
  decision_log: "The file every request's decision is appended to (`routeplane logs`, `routeplane why`).",
  'decision_log.path': 'Where; null: `~/.routeplane/decisions.ndjson`; false: no log.',
  'decision_log.max_mb': 'The size, in MB, beyond which the log is moved to `PATH.1` (the older ones one further) and started again.',
  'decision_log.keep': 'How many rotated logs are kept (`PATH.1` the newest … `PATH.N`); `routeplane usage` reads them all.',
  timeouts: 'How long an attempt may wait on its upstream before the next target is tried.',
  'timeouts.connect_ms': 'To open the connection to the upstream.',
  'timeouts.first_byte_ms': "Until the upstream's response headers are complete.",
  'timeouts.idle_ms': 'Between two chunks of a response body, streamed or not.',
  seats: 'Your subscriptions and API keys, one entry each.',
  'seats[].id': "The seat's name, used in chains and shown everywhere (`seat/model`); unique.",
  'seats[].provider': 'The API family the seat speaks: `anthropic`, or `openai` for any OpenAI-compatible API.',
  'seats[].base_url': "The provider's address; the agent's path is appended (`/v1` is not repeated when the URL already ends in it).",
  'seats[].auth':
    "How the seat proves who it is: `x-api-key` (default for anthropic), `bearer` (default for openai), `passthrough` (the agent's own login, forwarded as it came) or `none` (a local server).",
  'seats[].api_path':
    'What replaces the agent\'s leading `/v1` in the upstream path: `""` for ChatGPT\'s Codex backend; not repeated when `base_url` already ends in it.',
  'seats[].api_key_env':
    "The name of the environment variable holding the seat's key (never the key itself); it must be set where the daemon runs (`serve --env-file FILE` reads it from a file). Required for `x-api-key` and `bearer` seats, refused for `passthrough` and `none`.",
  'seats[].headers': "Extra headers sent upstream with every request of this seat (e.g. OpenRouter's `X-Title`).",
  'seats[].headers.<name>.env':
    "Read the header's value from this environment variable instead of writing it here (a secret then, like a key).",
  'seats[].extra_usage':
    "`avoid`: an answer billed past a subscription's plan holds the seat back until the plan resets; `allow`: go on using it.",
  'seats[].price': "The default price of the seat's targets, per million tokens in `currency`; null: no cost is computed.",
  'seats[].price.input': 'Per million input tokens (not counting cached ones).',
  'seats[].price.output': 'Per million output tokens.',
  'seats[].price.cache_read': 'Per million tokens read from the prompt cache.',
  'seats[].price.cache_write': 'Per million tokens written to the prompt cache.',
  'seats[].reserve_pct':
    "The last slice, in percent, of the seat's usage window kept for foreground work: background requests treat the seat as held back beyond it.",
  routes: 'The model names agents ask for, each mapped to an ordered chain of targets.',
  'routes[].model': 'The name agents send as `model`; unique among routes.',
  'routes[].balance':
    'The order the chain is tried in: `ordered` as written, `spread` sessions over the targets by weight, `cost` cheapest first, `latency` fastest first, `drain` the usage window that resets soonest first.',
  'routes[].lane': "The lane of this route's requests when neither the header nor the agent names one.",
  'routes[].retry': 'Retries of one target before moving to the next; null: one attempt per target.',
  'routes[].retry.max_attempts': 'Attempts per target, the first included.',
  'routes[].retry.retry_on': 'Which failures are retried: `429`, `5xx` (model errors with a status), `timeout` (also dropped connections).',
  'routes[].retry.backoff_ms':
    'The wait before the first retry, doubled for each next one (up to 10 s); a `Retry-After` can only lengthen it.',
  'routes[].retry.jitter':
    'Whether each wait is cut to a random 50–100 % of itself (never below a `Retry-After`), so agents do not retry in step.',
  'routes[].chain': 'The targets, tried in this order (the breaker moves failing ones to the back).',
  'routes[].chain[].seat': 'The seat of this target: a declared `seats[].id`.',
  'routes[].chain[].model': "The model sent to that seat in place of the route's name.",
  'routes[].chain[].weight':
    "This target's share of sessions under `balance: spread`; 0 drains it: never tried, not even when all else fails.",
  'routes[].chain[].cost_per_mtok': "The target's price per million tokens, for `balance: cost`; null: tried after the priced ones.",
  'routes[].chain[].price': "This target's price, replacing its seat's whole price (parts are not merged).",
  'routes[].chain[].price.input': 'Per million input tokens (not counting cached ones).',
  'routes[].chain[].price.output': 'Per million output tokens.',
  'routes[].chain[].price.cache_read': 'Per million tokens read from the prompt cache.',
  'routes[].chain[].price.cache_write': 'Per million tokens written to the prompt cache.',
  aliases:
    'Model names clients send on their own, each mapped to a route (or another alias); `*` in a name matches anything (`"claude-haiku-*": haiku`).',
  currency: 'The three-letter currency prices are written in; only shown, never converted.',
  notify: 'Tell you when a seat runs dry or recovers while nobody watches `top`; null: never.',
  'notify.command':
    "A program and its arguments run (without a shell) with the notification's text as the last argument, e.g. `[notify-send, Routeplane]`.",
  'notify.webhook': 'A URL that gets a POST of the notification as JSON.',
  'notify.on':
    'Which kinds notify: `credit`, `quota`, `key_rejected`, `recovered`, `fail_open`, `extra_usage`, `store`; default all of them.',
  influence: 'The breaker that learns from failures across requests and moves failing targets to the back of their chains.',
  'influence.enabled': 'Whether it does; off, every chain is tried in its own order and nothing is remembered.',
  'influence.cooldown_secs': 'The cooldown, in seconds, before a tripped target gets one probe; doubles with each failed probe.',
  'influence.max_cooldown_secs': 'The longest a cooldown or a rate limit may grow to, in seconds.',
  'influence.trip_threshold': 'Consecutive model errors (5xx, timeouts) on one target that trip it.',
  'influence.window_secs': 'The window, in seconds, those errors must fall in; a longer gap starts the count again.',
  'influence.max_quota_secs': "The longest a provider's stated reset may hold a quota breaker open, in seconds (7 days).",
  'influence.trip_on_rejected_key': 'Whether a 401 or 403 from a seat (its key refused) holds the seat back like an empty account.',
  'influence.state_file':
    "A file breakers are kept in across restarts (mode 0600), relative to the config's directory; null: a restart forgets them.",
  'influence.shared': "A Redis through which several daemons share every breaker; null: this daemon's memory only.",
  'influence.shared.redis_url': 'The Redis to share through: `redis://` or `rediss://`, host, port and database, no password.',
  'influence.shared.password_env': 'The environment variable holding the Redis password, if it needs one.',
  'influence.shared.key_prefix': 'The prefix of every Redis key; daemons with the same Redis and prefix share their breakers.',
  'influence.shared.timeout_ms': 'The longest a request waits on one Redis operation before going on without it.',
};
