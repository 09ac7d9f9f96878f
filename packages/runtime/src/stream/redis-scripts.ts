/**
 * Lua scripts of {@link RedisStreamBridge}. Each runs atomically, so an append
 * and its expiry refresh, or the bounds and new entries a subscriber reads,
 * are one step. Sent with EVALSHA, falling back to EVAL when the server does
 * not know the script (first use, or a restart emptied the script cache).
 */
import type { Redis } from "ioredis";
import { defineLuaScript as script, runLuaScript, type LuaScript } from "../internal/lua-script.js";

/** A Lua script of the stream bridge. */
export type StreamScript = LuaScript;

const IS_END = `local function is_end(fields)
  for i = 1, #fields, 2 do
    if fields[i] == 'kind' then return fields[i + 1] == 'end' end
  end
  return false
end`;

/**
 * KEYS: stream. ARGV: mode (`event` | `end`), id (explicit or `*`), maxlen,
 * ttlSeconds (0 = none), event name, data.
 *
 * Returns `{'added', id}`, `{'exists', id}` or `{'conflict', topId}`:
 * - `exists`: an entry with the explicit id and exactly these fields is
 *   already in the stream, i.e. an earlier attempt of this very append landed
 *   (its reply was lost): success, nothing written. In `end` mode also when
 *   the newest entry already is an end marker.
 * - `conflict`: the stream's top is at or after the explicit id and the entry
 *   at that id (if any) is not this append (another writer): the caller picks
 *   an id after the returned top and retries.
 * The expiry is refreshed on `added` and `exists`. Other XADD errors propagate.
 */
export const APPEND = script(
  "append",
  `${IS_END}
local key, mode, id, maxlen, ttl = KEYS[1], ARGV[1], ARGV[2], ARGV[3], tonumber(ARGV[4])
local function refresh()
  if ttl > 0 then redis.call('EXPIRE', key, ttl) end
end
local function add(entry_id)
  if mode == 'end' then
    return redis.pcall('XADD', key, 'MAXLEN', maxlen, entry_id, 'kind', 'end')
  end
  return redis.pcall('XADD', key, 'MAXLEN', maxlen, entry_id, 'kind', 'event', 'event', ARGV[5], 'data', ARGV[6])
end
if mode == 'end' then
  local top = redis.call('XREVRANGE', key, '+', '-', 'COUNT', 1)[1]
  if top and is_end(top[2]) then
    refresh()
    return {'exists', top[1]}
  end
end
-- The entry this append writes, field for field (another writer's entry at the same id is not ours).
local function same(fields)
  if mode == 'end' then return #fields == 2 and fields[1] == 'kind' and fields[2] == 'end' end
  return #fields == 6 and fields[1] == 'kind' and fields[2] == 'event' and fields[3] == 'event'
    and fields[4] == ARGV[5] and fields[5] == 'data' and fields[6] == ARGV[6]
end
local res = add(id)
if type(res) == 'table' and res.err then
  if id == '*' or not string.find(res.err, 'equal or smaller', 1, true) then return res end
  local existing = redis.call('XRANGE', key, id, id)[1]
  if existing and same(existing[2]) then
    refresh()
    return {'exists', id}
  end
  if mode ~= 'end' then
    return {'conflict', redis.call('XREVRANGE', key, '+', '-', 'COUNT', 1)[1][1]}
  end
  res = add('*')
  if type(res) == 'table' and res.err then return res end
end
refresh()
return {'added', res}`,
);

/**
 * KEYS: stream. ARGV: cursor (exclusive; `-` = from the start), count (0 =
 * bounds only).
 *
 * The atomic bounds snapshot of a subscriber (the reference's
 * `MULTI; XRANGE; XREVRANGE; XREAD; EXEC`), returning only the ids of the
 * bounds so large events are not transferred twice:
 * `{0}` when the stream does not exist, else
 * `{1, earliestEventId|nil, latestEventId|nil, latestIsEnd (0/1), entries}`
 * where `entries` are up to `count` entries after the cursor as `{id, fields}`.
 * Earliest/latest skip an end marker found at either edge.
 */
export const SNAPSHOT = script(
  "snapshot",
  `${IS_END}
local key, cursor, count = KEYS[1], ARGV[1], ARGV[2]
local head = redis.call('XRANGE', key, '-', '+', 'COUNT', 2)
if #head == 0 then return {0} end
local tail = redis.call('XREVRANGE', key, '+', '-', 'COUNT', 2)
local function first_event(entries)
  for _, entry in ipairs(entries) do
    if not is_end(entry[2]) then return entry[1] end
  end
  return false
end
local entries = {}
if tonumber(count) > 0 then
  local start = cursor
  if cursor ~= '-' then start = '(' .. cursor end
  entries = redis.pcall('XRANGE', key, start, '+', 'COUNT', count)
  -- Only a cursor of the largest possible id makes the exclusive start invalid: nothing can follow it.
  if entries.err then entries = {} end
end
return {1, first_event(head), first_event(tail), is_end(tail[1][2]) and 1 or 0, entries}`,
);

/**
 * Runs a single-key script: EVALSHA, then EVAL when the server answers NOSCRIPT.
 *
 * @param redis - connection to run it on.
 * @param stream - the script.
 * @param key - the single key.
 * @param args - ARGV.
 */
export function runScript(redis: Redis, stream: StreamScript, key: string, args: ReadonlyArray<string | number>): Promise<unknown> {
  return runLuaScript(redis, stream, [key], args);
}
