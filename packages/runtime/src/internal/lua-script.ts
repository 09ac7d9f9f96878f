/**
 * Lua scripts run against Redis with EVALSHA, falling back to EVAL when the
 * server does not know the script (first use, or a restart emptied its script
 * cache). Shared by the Redis stream bridge and the Redis run coordinator.
 */
import { createHash } from "node:crypto";
import type { Redis } from "ioredis";

/** A Lua script and its SHA1. */
export interface LuaScript {
  readonly name: string;
  readonly lua: string;
  readonly sha: string;
}

/** Names a script and computes its SHA1 once. */
export function defineLuaScript(name: string, lua: string): LuaScript {
  return { name, lua, sha: createHash("sha1").update(lua).digest("hex") };
}

/** Runs `script` with KEYS and ARGV: EVALSHA, then EVAL on NOSCRIPT. */
export async function runLuaScript(
  redis: Redis,
  script: LuaScript,
  keys: readonly string[],
  args: ReadonlyArray<string | number>,
): Promise<unknown> {
  try {
    return await redis.evalsha(script.sha, keys.length, ...keys, ...args);
  } catch (error) {
    if (!(error instanceof Error) || !error.message.startsWith("NOSCRIPT")) throw error;
    return await redis.eval(script.lua, keys.length, ...keys, ...args);
  }
}
