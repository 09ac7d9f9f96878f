/**
 * Typed errors for `@deerflow/memory`.
 *
 * Every error thrown by this package is a {@link MemoryError} with a stable
 * {@link MemoryErrorCode}; callers (the server's `/api/memory` routes) switch
 * on `code`, never on message text. The messages of the codes a route shows
 * are DeerFlow's texts.
 */
import { DeerflowError } from "@deerflow/kernel";

export { isDeerflowError } from "@deerflow/kernel";

/** Stable error codes of this package. */
export type MemoryErrorCode =
  /** A fact with the same (case-folded, trimmed) content exists in the scope. */
  | "FACT_DUPLICATE"
  /** The `max_facts` policy would evict the fact being added. */
  | "FACT_EVICTED"
  /** No fact with that id in the scope. */
  | "FACT_NOT_FOUND"
  /** Malformed input: empty content, confidence outside 0..1, bad ids or categories, a bad import document. */
  | "INVALID_INPUT"
  /** The stored data cannot be read as memory. */
  | "CORRUPTED"
  /** The backend does not implement the operation. */
  | "UNSUPPORTED"
  /** The update queue is at `queue_max_depth` and the update carries no signal. */
  | "QUEUE_FULL"
  /** The queue is closed (shutdown). */
  | "QUEUE_CLOSED"
  /** Options out of range. */
  | "CONFIG_INVALID"
  /** A remote backend answered with an error or could not be reached. */
  | "BACKEND_FAILED";

/** Base class of every error thrown by `@deerflow/memory`. */
export class MemoryError extends DeerflowError<MemoryErrorCode> {
  static override readonly brand: symbol = Symbol.for("@deerflow/memory/error");
  override name = "MemoryError";
}

/** DeerFlow's texts for the errors the `/api/memory` routes show. */
export const MEMORY_ERROR_TEXT = {
  duplicate: "A fact with the same content already exists.",
  evicted: "Fact was not stored because the configured memory.max_facts capacity policy evicted it",
  invalidConfidence: "Invalid confidence value; must be between 0 and 1.",
  emptyContent: "Memory fact content cannot be empty.",
  corrupted: "Stored memory data is corrupted.",
  notFound: (id: string) => `Memory fact '${id}' not found.`,
  unsupported: (operation: string, backend: string) =>
    `Operation '${operation}' not supported by memory backend '${backend}'.`,
} as const;
