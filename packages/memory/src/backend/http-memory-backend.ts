/**
 * `HttpMemoryBackend`: the plugin example of a remote memory service
 * (mem0-style: memory kept by a separate service, reached over HTTP). It
 * speaks a small JSON API — write a server for it, or copy this class for
 * your service's own API — and passes the same conformance kit as the store
 * backend. Routes, under `baseUrl` (user and agent URL-encoded; agent
 * `__default__` for the default agent):
 *
 * | method | path | body | answer |
 * |---|---|---|---|
 * | GET | `/memories/{user}/{agent}` | – | the document |
 * | PUT | `/memories/{user}/{agent}` | a document (import) | the document |
 * | DELETE | `/memories/{user}/{agent}` | – | the cleared document |
 * | PUT | `/memories/{user}/{agent}/summaries` | `{user?, history?}` | 204 |
 * | POST | `/memories/{user}/{agent}/facts` | a new fact | 201 the fact |
 * | PATCH | `/memories/{user}/{agent}/facts/{id}` | a patch | the fact |
 * | DELETE | `/memories/{user}/{agent}/facts/{id}` | – | 204 |
 * | POST | `/memories/{user}/{agent}/search` | `{query, limit}` | `{facts}` |
 *
 * Errors are `{"error": {"code": "<MemoryErrorCode>", "message": "…"}}` with
 * any 4xx/5xx status; the code is re-thrown as a `MemoryError`. A network
 * failure or timeout is `BACKEND_FAILED`.
 */
import { agentBucketOf } from "../document.js";
import { MemoryError, type MemoryErrorCode } from "../errors.js";
import type { FactPatch, MemoryDocument, MemoryFact, MemoryScope, NewFact, SummaryUpdate } from "../types.js";
import type { MemoryBackend, MemorySearchOptions } from "./memory-backend.js";

/** Options of {@link HttpMemoryBackend}. */
export interface HttpMemoryBackendOptions {
  /** e.g. `http://memory.internal:8080/v1`. */
  readonly baseUrl: string;
  /** Sent as `Authorization: Bearer <apiKey>`. */
  readonly apiKey?: string;
  /** Per request. Default 10 000. */
  readonly timeoutMs?: number;
  /** Default `globalThis.fetch`. */
  readonly fetch?: typeof fetch;
}

const CODES = new Set<MemoryErrorCode>([
  "FACT_DUPLICATE",
  "FACT_EVICTED",
  "FACT_NOT_FOUND",
  "INVALID_INPUT",
  "CORRUPTED",
  "UNSUPPORTED",
]);

/** Memory kept by a remote service speaking the API above. */
export class HttpMemoryBackend implements MemoryBackend {
  readonly name = "HttpMemoryBackend";
  readonly #base: string;
  readonly #options: HttpMemoryBackendOptions;

  /** @param options - base URL, key, timeout */
  constructor(options: HttpMemoryBackendOptions) {
    this.#base = options.baseUrl.replace(/\/+$/, "");
    this.#options = options;
  }

  #path(scope: MemoryScope, rest = ""): string {
    return `${this.#base}/memories/${encodeURIComponent(scope.userId)}/${encodeURIComponent(agentBucketOf(scope))}${rest}`;
  }

  async #call<T>(method: string, url: string, body?: unknown): Promise<T> {
    const doFetch = this.#options.fetch ?? fetch;
    let res: Response;
    try {
      res = await doFetch(url, {
        method,
        headers: {
          accept: "application/json",
          ...(body === undefined ? {} : { "content-type": "application/json" }),
          ...(this.#options.apiKey === undefined ? {} : { authorization: `Bearer ${this.#options.apiKey}` }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(this.#options.timeoutMs ?? 10_000),
      });
    } catch (err) {
      throw new MemoryError("BACKEND_FAILED", `Memory service unreachable: ${(err as Error).message}`, { cause: err });
    }
    const text = await res.text();
    let parsed: unknown;
    try {
      parsed = text === "" ? undefined : JSON.parse(text);
    } catch {
      throw new MemoryError("BACKEND_FAILED", `Memory service answered ${res.status} with non-JSON text.`);
    }
    if (!res.ok) {
      const error = (parsed as { error?: { code?: unknown; message?: unknown } } | undefined)?.error;
      const code = CODES.has(error?.code as MemoryErrorCode) ? (error?.code as MemoryErrorCode) : "BACKEND_FAILED";
      const message = typeof error?.message === "string" ? error.message : `Memory service answered ${res.status}.`;
      throw new MemoryError(code, message, { details: { status: res.status } });
    }
    return parsed as T;
  }

  get(scope: MemoryScope): Promise<MemoryDocument> {
    return this.#call("GET", this.#path(scope));
  }

  addFact(scope: MemoryScope, fact: NewFact): Promise<MemoryFact> {
    return this.#call("POST", this.#path(scope, "/facts"), fact);
  }

  updateFact(scope: MemoryScope, id: string, patch: FactPatch): Promise<MemoryFact> {
    return this.#call("PATCH", this.#path(scope, `/facts/${encodeURIComponent(id)}`), patch);
  }

  async deleteFact(scope: MemoryScope, id: string): Promise<void> {
    await this.#call("DELETE", this.#path(scope, `/facts/${encodeURIComponent(id)}`));
  }

  async updateSummaries(scope: MemoryScope, update: SummaryUpdate): Promise<void> {
    await this.#call("PUT", this.#path(scope, "/summaries"), update);
  }

  clear(scope: MemoryScope): Promise<MemoryDocument> {
    return this.#call("DELETE", this.#path(scope));
  }

  importMemory(scope: MemoryScope, document: unknown): Promise<MemoryDocument> {
    if (typeof document !== "object" || document === null || Array.isArray(document))
      return Promise.reject(new MemoryError("INVALID_INPUT", "An import must be a memory document (an object)."));
    return this.#call("PUT", this.#path(scope), document);
  }

  async search(scope: MemoryScope, query: string, options: MemorySearchOptions = {}): Promise<MemoryFact[]> {
    return (
      await this.#call<{ facts: MemoryFact[] }>("POST", this.#path(scope, "/search"), {
        query,
        limit: options.limit ?? 10,
      })
    ).facts;
  }
}
