/**
 * The Lua scripts that keep the breaker rules across daemons.
 * Redis runs each one atomically, so two daemons'
 * writes to one breaker merge by the same rules whatever order they land in.
 *
 * Layout under the prefix P: `P b:KEY` a breaker as `{b: Breaker, o: origin,
 * v: revision}`; `P c:KEY` its probe claim (the holder's token); `P s:NAME`
 * a streak; `P breakers` and `P streaks` the sets that index them; `P rev`
 * the revision counter (every change takes the next one, so a reader applies
 * a copy only when it is newer than the last it applied); `P daemons` the
 * heartbeats; `P events` the channel every change is published on.
 *
 * Keys are built inside the scripts from the prefix: this store is for one
 * Redis server, not a cluster.
 */

/** Shared by every script: encoding, expiry, store and publish. */
const COMMON = `
local P = ARGV[1]
local NULL = cjson.null
local function num(x) if x == nil or x == NULL then return nil end return tonumber(x) end
local function nextRev() return redis.call('INCR', P .. 'rev') end
-- a rate limit lives until its deadline; every other kind until it could be probed plus
-- max_cooldown_secs (a quota's deadline is its probe-ready time), so a lost message can't
-- leave a breaker open forever
local function expiresAt(b, now, maxCool)
  local u = num(b['until']) or now
  if b.kind == 'rate_limit' then return u end
  local c = num(b.claimed_at)
  if c ~= nil and c > u then u = c end
  return u + maxCool
end
local function store(key, env, now, maxCool)
  local at = math.floor(expiresAt(env.b, now, maxCool))
  if at <= now then
    redis.call('DEL', P .. 'b:' .. key)
    redis.call('SREM', P .. 'breakers', key)
    return false
  end
  redis.call('SET', P .. 'b:' .. key, cjson.encode(env), 'PXAT', at)
  redis.call('SADD', P .. 'breakers', key)
  return true
end
local function publish(msg)
  redis.call('PUBLISH', P .. 'events', cjson.encode(msg))
end
`;

/**
 * PUT: one local transition of a live breaker (or a breaker pushed back after
 * an outage), merged into the shared copy.
 * ARGV: prefix, key, {b, o} JSON, action, reason, refused delta, skipped delta,
 * mode ('change' | 'push'), max cooldown ms, the writer's claim token or '', now.
 * Returns the shared copy after the merge as JSON, or '' when none is kept.
 *
 * The rules: a deadline (rate limit, quota) only moves forward, whatever the
 * order writes land in; a fresh trip of a breaker already held elsewhere
 * resets nothing; a failed probe (more failed probes) replaces the cooldown;
 * a breaker goes probe-ready at most once per cooldown and never while a
 * claim is held; counts add up; a push of a later trip (made during an
 * outage) moves `since` forward. Only evidence creates a breaker (a trip, an
 * extension, a failed probe, a push after an outage): a count or a phase
 * change of a breaker another daemon already ended does not bring it back.
 */
export const PUT = `${COMMON}
local key = ARGV[2]
local inc = cjson.decode(ARGV[3])
local action = ARGV[4]
local reason = ARGV[5]
local dRefused = tonumber(ARGV[6])
local dSkipped = tonumber(ARGV[7])
local mode = ARGV[8]
local maxCool = tonumber(ARGV[9])
local token = ARGV[10]
local now = tonumber(ARGV[11])
local nb = inc.b
local deadline = nb.kind == 'rate_limit' or nb.kind == 'quota'
local claimKey = P .. 'c:' .. key
if token ~= '' and (action == 'probe_failed') and redis.call('GET', claimKey) == token then
  redis.call('DEL', claimKey)
end

local raw = redis.call('GET', P .. 'b:' .. key)
local env
local published = action
if not raw then
  local creates = mode == 'push' or action == 'tripped' or action == 'extended' or action == 'probe_failed'
  if not creates then return '' end
  env = { b = nb, o = inc.o }
  if mode == 'push' then published = 'tripped' end
else
  env = cjson.decode(raw)
  local b = env.b
  local changed = false
  local function take(field) if b[field] ~= nb[field] then b[field] = nb[field]; changed = true end end
  local bUntil = num(b['until'])
  local nUntil = num(nb['until'])
  if (action == 'probe_failed' or mode == 'push') and nb.failed_probes > b.failed_probes then
    -- a newer cooldown: the holder's probe failed
    local keep = bUntil
    for _, f in ipairs({'phase', 'since', 'until', 'cooldown_ms', 'failed_probes', 'claimed_at', 'signal', 'reset_at'}) do take(f) end
    if deadline and keep ~= nil and (nUntil == nil or keep > nUntil) then b['until'] = keep end
    published = 'probe_failed'
  elseif deadline and nUntil ~= nil and (bUntil == nil or nUntil > bUntil) and
      (action == 'tripped' or action == 'extended' or action == 'probe_failed' or mode == 'push') then
    -- extend-only: a later deadline wins, an earlier one changes nothing
    b['until'] = nUntil
    take('cooldown_ms')
    take('signal')
    if nb.reset_at ~= NULL then take('reset_at') end
    if b.phase == 'probe_ready' then b.phase = 'open'; b.claimed_at = NULL end
    changed = true
    published = 'extended'
  elseif action == 'probe_ready' and nb.failed_probes == b.failed_probes then
    if b.phase == 'open' then
      b.phase = 'probe_ready'
      if nUntil ~= nil and (bUntil == nil or nUntil < bUntil) then b['until'] = nUntil end
      changed = true
    elseif b.phase == 'probing' and redis.call('EXISTS', claimKey) == 0 then
      b.phase = 'probe_ready'
      b.claimed_at = NULL
      changed = true
    end
  end
  if mode == 'push' and nb.since > b.since then
    -- a trip made during an outage, pushed after it: the shared copy now stands for that later
    -- trip too, so an end of the older one (another daemon's, replayed after the outage) leaves it
    b.since = nb.since
    changed = true
  end
  if mode == 'push' then
    if nb.refused_count > b.refused_count then b.refused_count = nb.refused_count; changed = true end
    if nb.skipped_count > b.skipped_count then b.skipped_count = nb.skipped_count; changed = true end
  elseif dRefused ~= 0 or dSkipped ~= 0 then
    b.refused_count = b.refused_count + dRefused
    b.skipped_count = b.skipped_count + dSkipped
    changed = true
  end
  if not changed then return raw end
  env.o = inc.o
end
env.v = nextRev()
if not store(key, env, now, maxCool) then return '' end
publish({ t = 'b', k = key, a = published, r = reason, o = env.o, v = env.v, b = env.b })
return cjson.encode(env)
`;

/**
 * END: a breaker ended here (cleared by a success, or reset). A clear does
 * not end a newer trip another daemon made meanwhile; a reset always ends
 * it. Any claim on it is resolved with it.
 *
 * 'replay' mode: an end this daemon made while Redis was away, given again
 * once it is back. Then a reset is no stronger than a clear (a trip another
 * daemon made during the outage is newer than the reset and stands), nothing
 * is published when there is nothing to end, and the message carries the
 * ended trip's `since` (`s`), so a daemon holding a newer trip of its own
 * keeps it.
 * ARGV: prefix, key, action, reason, origin, since of the ended breaker or '',
 * mode ('' | 'replay').
 * Returns the revision of the end it published, or 0 when a newer trip stands
 * (or, when replayed, nothing was there): the writer orders its own end among
 * the copies it hears, as it does a PUT's answer.
 */
export const END = `${COMMON}
local key = ARGV[2]
local action = ARGV[3]
local reason = ARGV[4]
local origin = ARGV[5]
local since = tonumber(ARGV[6])
local replay = ARGV[7] == 'replay'
local raw = redis.call('GET', P .. 'b:' .. key)
if replay and (not raw or since == nil) then return 0 end
if raw and (action ~= 'reset' or replay) and since ~= nil then
  local b = cjson.decode(raw).b
  if b.since > since then return 0 end
end
redis.call('DEL', P .. 'b:' .. key, P .. 'c:' .. key)
redis.call('SREM', P .. 'breakers', key)
local msg = { t = 'b', k = key, a = action, r = reason, o = origin, v = nextRev(), b = NULL }
if replay then msg.s = since end
publish(msg)
return msg.v
`;

/**
 * CLAIM: the one probe of a breaker, cluster-wide: a key set only if absent,
 * holding the claimant's token, expiring after max_cooldown_secs. Refused
 * while another claim stands, or while the shared breaker is still open (a
 * failed probe elsewhere re-tripped it).
 * ARGV: prefix, key, token, now, max cooldown ms, origin.
 * Returns {1 when claimed or 0 when refused, the shared copy after it or ''}.
 */
export const CLAIM = `${COMMON}
local key = ARGV[2]
local token = ARGV[3]
local now = tonumber(ARGV[4])
local maxCool = tonumber(ARGV[5])
local origin = ARGV[6]
local raw = redis.call('GET', P .. 'b:' .. key)
local env = nil
if raw then
  env = cjson.decode(raw)
  local u = num(env.b['until'])
  if env.b.phase == 'open' and u ~= nil and u > now then return { 0, raw } end
end
if not redis.call('SET', P .. 'c:' .. key, token, 'NX', 'PX', maxCool) then return { 0, raw or '' } end
if env ~= nil then
  env.b.phase = 'probing'
  env.b.claimed_at = now
  env.o = origin
  env.v = nextRev()
  if store(key, env, now, maxCool) then
    publish({ t = 'b', k = key, a = 'probe_claimed', r = 'probe claimed', o = origin, v = env.v, b = env.b })
    return { 1, cjson.encode(env) }
  end
end
return { 1, '' }
`;

/**
 * RELEASE: the holder gives its claim back (the request never reached the
 * target, or the answer gave no verdict); only the holder's token can.
 * ARGV: prefix, key, token, origin, reason, now, max cooldown ms. Returns the
 * shared copy after it, or '' (not the holder, or no breaker kept).
 */
export const RELEASE = `${COMMON}
local key = ARGV[2]
local token = ARGV[3]
local origin = ARGV[4]
local reason = ARGV[5]
local now = tonumber(ARGV[6])
local maxCool = tonumber(ARGV[7])
if redis.call('GET', P .. 'c:' .. key) ~= token then return '' end
redis.call('DEL', P .. 'c:' .. key)
local raw = redis.call('GET', P .. 'b:' .. key)
if raw then
  local env = cjson.decode(raw)
  if env.b.phase == 'probing' then
    env.b.phase = 'probe_ready'
    env.b.claimed_at = NULL
    env.o = origin
    env.v = nextRev()
    if store(key, env, now, maxCool) then
      publish({ t = 'b', k = key, a = 'probe_ready', r = reason, o = origin, v = env.v, b = env.b })
      return cjson.encode(env)
    end
  end
end
return ''
`;

/**
 * STREAK: consecutive model errors, counted across daemons. 'fail' is one
 * more failure (a gap longer than the window restarts the count); 'reset'
 * ends the streak (a success); 'push' merges a local streak after an outage.
 * ARGV: prefix, name, mode, at (ms), seats JSON array, count, window ms, origin.
 * Returns the streak after the change as JSON ({n, c, l, s, v}), a reset as
 * one with count 0 and the reset's revision (so the writer orders it among
 * the copies it hears, and an older count cannot follow it), or '' when
 * nothing changed.
 */
export const STREAK = `${COMMON}
local name = ARGV[2]
local mode = ARGV[3]
local at = tonumber(ARGV[4])
local seats = cjson.decode(ARGV[5])
local count = tonumber(ARGV[6])
local window = tonumber(ARGV[7])
local origin = ARGV[8]
local k = P .. 's:' .. name
if mode == 'reset' then
  if redis.call('DEL', k) == 0 then return '' end
  redis.call('SREM', P .. 'streaks', name)
  local ended = { n = name, c = 0, l = NULL, s = {}, v = nextRev() }
  publish({ t = 's', n = name, c = 0, l = NULL, s = {}, o = origin, v = ended.v })
  return cjson.encode(ended)
end
local raw = redis.call('GET', k)
local s = { n = name, c = 0, l = at, s = {} }
if raw then s = cjson.decode(raw) end
local have = {}
if mode == 'fail' then
  if raw and at - s.l > window then s.c = 0; s.s = {} end
  s.c = s.c + 1
else
  if count > s.c then s.c = count end
end
if at > s.l then s.l = at end
for _, seat in ipairs(s.s) do have[seat] = true end
for _, seat in ipairs(seats) do if not have[seat] then table.insert(s.s, seat); have[seat] = true end end
s.v = nextRev()
local expires = math.floor(s.l + window)
if expires <= at then return '' end
redis.call('SET', k, cjson.encode(s), 'PXAT', expires)
redis.call('SADD', P .. 'streaks', name)
publish({ t = 's', n = name, c = s.c, l = s.l, s = s.s, o = origin, v = s.v })
return cjson.encode(s)
`;

/**
 * SNAPSHOT: every shared breaker and streak, read once on (re)subscribe.
 * ARGV: prefix. Returns {breaker JSONs, streak JSONs}; index entries whose key
 * expired are dropped on the way.
 */
export const SNAPSHOT = `${COMMON}
local function readAll(set, kind)
  local out = {}
  for _, name in ipairs(redis.call('SMEMBERS', P .. set)) do
    local raw = redis.call('GET', P .. kind .. name)
    if raw then table.insert(out, raw) else redis.call('SREM', P .. set, name) end
  end
  return out
end
return { readAll('breakers', 'b:'), readAll('streaks', 's:') }
`;

/**
 * HEARTBEAT: this daemon is alive; returns how many daemons sharing this
 * prefix beat within the window (Redis's own clock, so daemons on machines
 * whose clocks disagree still count each other).
 * ARGV: prefix, daemon id, window ms, 'beat' | 'leave'.
 */
export const HEARTBEAT = `${COMMON}
local id = ARGV[2]
local window = tonumber(ARGV[3])
local z = P .. 'daemons'
if ARGV[4] == 'leave' then redis.call('ZREM', z, id); return redis.call('ZCARD', z) end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZADD', z, now, id)
redis.call('ZREMRANGEBYSCORE', z, '-inf', now - window)
redis.call('PEXPIRE', z, window * 2)
return redis.call('ZCARD', z)
`;
