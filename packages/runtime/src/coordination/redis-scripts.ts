/**
 * Lua scripts of {@link RedisRunCoordinator}. Each check-and-write runs as one
 * script so that no other instance can act between the check and the write.
 * Scripts are sent with EVALSHA and fall back to EVAL when the server does not
 * know them (first use, or after a restart flushed the script cache).
 */
import { defineLuaScript as script, runLuaScript } from "../internal/lua-script.js";

/**
 * KEYS: lease, cancel. ARGV: instanceId, leaseMs. Returns 1 when this instance
 * holds the lease afterwards. A fresh lease starts without a pending cancel
 * request (a left-over one belonged to a previous owner); re-acquiring a lease
 * already held refreshes it and keeps any pending request.
 */
export const ACQUIRE = script(
  "acquire",
  `if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
  redis.call('DEL', KEYS[2])
  return 1
end
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
return 0`,
);

/**
 * KEYS: lease1, cancel1, lease2, cancel2, ... ARGV: instanceId, leaseMs.
 * Extends each lease whose value is this instance. Returns two arrays in key
 * order: 1 (renewed) or 0 (lost: expired, taken or deleted), and the pending
 * cancel action of each renewed run ("" when none).
 */
export const RENEW = script(
  "renew",
  `local renewed = {}
local actions = {}
for i = 1, #KEYS, 2 do
  local n = (i + 1) / 2
  if redis.call('GET', KEYS[i]) == ARGV[1] then
    redis.call('PEXPIRE', KEYS[i], ARGV[2])
    renewed[n] = 1
    actions[n] = redis.call('GET', KEYS[i + 1]) or ''
  else
    renewed[n] = 0
    actions[n] = ''
  end
end
return {renewed, actions}`,
);

/** KEYS: lease, cancel. ARGV: instanceId. Deletes both only when this instance holds the lease. */
export const RELEASE = script(
  "release",
  `if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('DEL', KEYS[1], KEYS[2])
  return 1
end
return 0`,
);

/**
 * KEYS: lease, cancel. ARGV: action, requestTtlMs, channelPrefix, runId.
 * Without a live lease returns nil. Otherwise records the request (the first
 * action wins), publishes the recorded action on the owner's channel and
 * returns the owner.
 */
export const REQUEST_CANCEL = script(
  "requestCancel",
  `local owner = redis.call('GET', KEYS[1])
if not owner then return false end
redis.call('SET', KEYS[2], ARGV[1], 'NX', 'PX', ARGV[2])
local action = redis.call('GET', KEYS[2])
redis.call('PUBLISH', ARGV[3] .. owner, cjson.encode({runId = ARGV[4], action = action}))
return owner`,
);

/** Runs `script` by SHA, loading it with EVAL when the server answers NOSCRIPT. */
export const runScript = runLuaScript;

/**
 * KEYS: lease. Returns `{owner, pttl}` of a live lease, or false. One script so
 * the owner and the time left are read at the same instant.
 */
export const LEASE_OF = script(
  "leaseOf",
  `local owner = redis.call('GET', KEYS[1])
if not owner then return false end
return {owner, redis.call('PTTL', KEYS[1])}`,
);
