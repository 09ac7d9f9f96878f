/**
 * The structural check of a {@link MemoryBackend} from elsewhere (a `use:`
 * plugin, another copy of this package): `instanceof` cannot recognise those.
 */
import type { MemoryBackend } from "./memory-backend.js";

/** What a memory backend must look like, for error messages. */
export const MEMORY_BACKEND_SHAPE =
  "a MemoryBackend (name, get, addFact, updateFact, deleteFact, updateSummaries, clear, importMemory, search)";

const METHODS = [
  "get",
  "addFact",
  "updateFact",
  "deleteFact",
  "updateSummaries",
  "clear",
  "importMemory",
  "search",
] as const;

/**
 * @param value - anything
 * @returns whether `value` has a backend's name and every method
 */
export function isMemoryBackend(value: unknown): value is MemoryBackend {
  if (typeof value !== "object" || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v["name"] === "string" && METHODS.every((m) => typeof v[m] === "function");
}
