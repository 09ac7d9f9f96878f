/**
 * Lua scripts of {@link RedisStreamBridge}. Each runs atomically, so a batch of
 * appends and its expiry refresh, or the bounds and new entries a subscriber
 * reads, are one step (and one network round trip). Sent with EVALSHA, falling
 * back to EVAL when the server does not know the script (first use, or a
 * restart emptied the script cache).
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
 * KEYS: stream. ARGV: maxlen, ttlSeconds (0 = none), then one triple per
 * event, in order: explicit id, event name, data. The ids increase.
 *
 * Appends the events in order, each with `XADD MAXLEN maxlen` (the stream ends
 * exactly as after one append per event). Returns `{'ok', n}` when all `n` are
 * in the stream, else `{status, written, detail}` where the first `written`
 * events are in the stream (written now or by an earlier attempt) and the
 * rest are not:
 * - `conflict`: the stream's last id is at or after the next event's id and
 *   the entry there is not that event (another writer); `detail` is the id of
 *   the stream's top entry (false when there is none). The caller continues
 *   after it with the remaining events.
 * - `failed`: XADD refused the next event with another error (`detail`).
 *
 * **A retry of a batch whose reply was lost** (this script's own or the same
 * call resent by ioredis): the events that landed are a prefix of the batch,
 * since each call writes from its first not-yet-written event on in one atomic
 * step. When the first XADD is refused as "equal or smaller", the script looks
 * up the batch's id range and takes the last event found at its own id with
 * exactly its own fields as the end of that prefix (earlier events of it may
 * have been trimmed since; the last one is kept unless `maxlen` newer entries
 * followed), then writes only what follows: no event twice, none lost. A
 * first XADD refused otherwise (WRONGTYPE, ...) is returned as an error reply,
 * nothing written. The expiry is refreshed whenever an event is in the stream.
 */
export const APPEND_EVENTS = script(
  "append-events",
  `local key, maxlen, ttl = KEYS[1], ARGV[1], tonumber(ARGV[2])
local n = (#ARGV - 2) / 3
-- Event j (1-based): id ARGV[3j], name ARGV[3j+1], data ARGV[3j+2].
local function add(j)
  return redis.pcall('XADD', key, 'MAXLEN', maxlen, ARGV[3 * j], 'kind', 'event', 'event', ARGV[3 * j + 1], 'data', ARGV[3 * j + 2])
end
local function refused(res)
  return type(res) == 'table' and res.err
end
local function behind(err)
  return string.find(err, 'equal or smaller', 1, true) ~= nil
end
-- Event j field for field (another writer's entry at the same id is not ours).
local function ours(j, fields)
  return #fields == 6 and fields[1] == 'kind' and fields[2] == 'event' and fields[3] == 'event'
    and fields[4] == ARGV[3 * j + 1] and fields[5] == 'data' and fields[6] == ARGV[3 * j + 2]
end
local function refresh()
  if ttl > 0 then redis.call('EXPIRE', key, ttl) end
end
local function top()
  local entry = redis.call('XREVRANGE', key, '+', '-', 'COUNT', 1)[1]
  if entry then return entry[1] end
  return false
end
local first = 2
local res = add(1)
if refused(res) then
  if not behind(res.err) then return res end
  local found = {}
  for _, entry in ipairs(redis.call('XRANGE', key, ARGV[3], ARGV[3 * n])) do found[entry[1]] = entry[2] end
  local landed = 0
  for j = n, 1, -1 do
    local fields = found[ARGV[3 * j]]
    if fields and ours(j, fields) then
      landed = j
      break
    end
  end
  if landed == 0 then return {'conflict', 0, top()} end
  first = landed + 1
end
for j = first, n do
  res = add(j)
  if refused(res) then
    refresh()
    if behind(res.err) then return {'conflict', j - 1, top()} end
    return {'failed', j - 1, res.err}
  end
end
refresh()
return {'ok', n}`,
);

/**
 * KEYS: stream. ARGV: id (explicit or `*`), maxlen, ttlSeconds (0 = none).
 *
 * Appends the end marker `{kind: end}`. Returns `{'added', id}` or
 * `{'exists', id}`: the newest entry already is an end marker, or an end
 * marker is at the explicit id (an earlier attempt landed and its reply was
 * lost); nothing written. When the stream's last id is at or after the
 * explicit id otherwise (another writer), the marker is appended with `*`.
 * The expiry is refreshed either way. Other XADD errors propagate.
 */
export const APPEND_END = script(
  "append-end",
  `${IS_END}
local key, id, maxlen, ttl = KEYS[1], ARGV[1], ARGV[2], tonumber(ARGV[3])
local function refresh()
  if ttl > 0 then redis.call('EXPIRE', key, ttl) end
end
local top = redis.call('XREVRANGE', key, '+', '-', 'COUNT', 1)[1]
if top and is_end(top[2]) then
  refresh()
  return {'exists', top[1]}
end
local res = redis.pcall('XADD', key, 'MAXLEN', maxlen, id, 'kind', 'end')
if type(res) == 'table' and res.err then
  if id == '*' or not string.find(res.err, 'equal or smaller', 1, true) then return res end
  local existing = redis.call('XRANGE', key, id, id)[1]
  if existing and #existing[2] == 2 and existing[2][1] == 'kind' and existing[2][2] == 'end' then
    refresh()
    return {'exists', id}
  end
  res = redis.pcall('XADD', key, 'MAXLEN', maxlen, '*', 'kind', 'end')
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
export function runScript(
  redis: Redis,
  stream: StreamScript,
  key: string,
  args: ReadonlyArray<string | number>,
): Promise<unknown> {
  return runLuaScript(redis, stream, [key], args);
}
