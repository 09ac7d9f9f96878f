/**
 * {@link SandboxBackend} over the `/api/sandboxes` provisioner API.
 */
import { SandboxError } from "../../errors.js";
import type { CreateSandboxRequest } from "../wire/types.js";
import { sandboxErrorFromWire } from "../wire/errors.js";
import { callJson, type HttpAnswer, type HttpCall } from "./http.js";
import type { SandboxBackend, SandboxEndpoint, SandboxListing } from "./sandbox-backend.js";

/** Per-call timeouts (DeerFlow's provisioner client values). */
export interface ProvisionerTimeouts {
  /** Default 30 s. */
  readonly createMs?: number;
  /** Status and list calls. Default 10 s. */
  readonly statusMs?: number;
  /** Default 15 s. */
  readonly destroyMs?: number;
}

/** Options of {@link HttpProvisionerBackend}. */
export interface HttpProvisionerBackendOptions {
  /** Base URL of the provisioner, e.g. `http://127.0.0.1:8080` (the sandbox service) or DeerFlow's provisioner. */
  readonly url: string;
  /** Sent as `X-API-Key`. */
  readonly apiKey?: string;
  readonly timeouts?: ProvisionerTimeouts;
  /** Default: the global `fetch`. */
  readonly fetch?: typeof fetch;
}

/** A 404 means "no such sandbox" unless the route itself is unknown (a wrong base URL). */
function isGone(answer: HttpAnswer, what: string): boolean {
  if (answer.status !== 404) return false;
  const code = (answer.body as { error?: { code?: unknown } } | undefined)?.error?.code;
  if (code === "ROUTE_NOT_FOUND") throw sandboxErrorFromWire(404, answer.body, what);
  return true;
}

interface RecordLike {
  readonly sandbox_id?: unknown;
  readonly sandbox_url?: unknown;
  readonly status?: unknown;
}

/**
 * Talks to a provisioner: `POST /api/sandboxes` creates, `GET /api/sandboxes/:id`
 * finds (404 = gone, `status: "Running"` = alive), `DELETE` destroys, `GET /api/sandboxes`
 * lists. This package's sandbox service (`createSandboxServer`) serves that API;
 * so does DeerFlow's Kubernetes provisioner, which makes this backend the seam
 * for a Kubernetes deployment: point `url` at the provisioner and every
 * sandbox becomes a pod.
 *
 * @example
 * ```ts
 * const backend = new HttpProvisionerBackend({ url: "http://127.0.0.1:8080", apiKey: process.env.SANDBOX_API_KEY });
 * const provider = new RemoteSandboxProvider({ backend, apiKey: process.env.SANDBOX_API_KEY });
 * ```
 */
export class HttpProvisionerBackend implements SandboxBackend {
  readonly #base: string;
  readonly #apiKey: string | undefined;
  readonly #fetch: typeof fetch;
  readonly #createMs: number;
  readonly #statusMs: number;
  readonly #destroyMs: number;

  /** @param options - URL, key, timeouts. */
  constructor(options: HttpProvisionerBackendOptions) {
    this.#base = options.url.replace(/\/+$/, "");
    this.#apiKey = options.apiKey;
    this.#fetch = options.fetch ?? globalThis.fetch;
    this.#createMs = options.timeouts?.createMs ?? 30_000;
    this.#statusMs = options.timeouts?.statusMs ?? 10_000;
    this.#destroyMs = options.timeouts?.destroyMs ?? 15_000;
  }

  #call(
    method: HttpCall["method"],
    route: string,
    timeoutMs: number,
    body?: unknown,
    acceptStatuses?: readonly number[],
  ): HttpCall {
    return {
      method,
      url: `${this.#base}${route}`,
      apiKey: this.#apiKey,
      body,
      timeoutMs,
      fetch: this.#fetch,
      what: `${method} ${route.replace(/\/api\/sandboxes\/.+/, "/api/sandboxes/:id")}`,
      ...(acceptStatuses === undefined ? {} : { acceptStatuses }),
    };
  }

  #endpoint(record: RecordLike | undefined, what: string): SandboxEndpoint {
    if (typeof record?.sandbox_url !== "string")
      throw new SandboxError("UNAVAILABLE", `Sandbox provisioner sent a malformed answer to ${what}`);
    // A relative sandbox_url is resolved against the provisioner.
    return { url: new URL(record.sandbox_url, `${this.#base}/`).toString().replace(/\/+$/, "") };
  }

  async #status(id: string): Promise<RecordLike | null> {
    const call = this.#call("GET", `/api/sandboxes/${encodeURIComponent(id)}`, this.#statusMs, undefined, [404]);
    const answer = await callJson(call);
    if (isGone(answer, call.what)) return null;
    return (answer.body ?? {}) as RecordLike;
  }

  /** {@inheritDoc SandboxBackend.create} */
  async create(id: string, threadId: string, userId: string): Promise<SandboxEndpoint> {
    const body: CreateSandboxRequest = { sandbox_id: id, thread_id: threadId, user_id: userId };
    const answer = await callJson(this.#call("POST", "/api/sandboxes", this.#createMs, body));
    return this.#endpoint(answer.body as RecordLike | undefined, "POST /api/sandboxes");
  }

  /** {@inheritDoc SandboxBackend.discover} */
  async discover(id: string): Promise<SandboxEndpoint | null> {
    const record = await this.#status(id);
    if (record === null || record.status !== "Running") return null;
    return this.#endpoint(record, "GET /api/sandboxes/:id");
  }

  /** {@inheritDoc SandboxBackend.destroy} */
  async destroy(id: string): Promise<void> {
    const call = this.#call("DELETE", `/api/sandboxes/${encodeURIComponent(id)}`, this.#destroyMs, undefined, [404]);
    isGone(await callJson(call), call.what);
  }

  /** {@inheritDoc SandboxBackend.list} */
  async list(): Promise<readonly SandboxListing[]> {
    const answer = await callJson(this.#call("GET", "/api/sandboxes", this.#statusMs));
    const sandboxes = (answer.body as { sandboxes?: unknown } | undefined)?.sandboxes;
    if (!Array.isArray(sandboxes))
      throw new SandboxError("UNAVAILABLE", "Sandbox provisioner sent a malformed answer to GET /api/sandboxes");
    return sandboxes.map((entry: unknown) => {
      const record = entry as RecordLike;
      if (typeof record.sandbox_id !== "string")
        throw new SandboxError("UNAVAILABLE", "Sandbox provisioner sent a malformed answer to GET /api/sandboxes");
      return { id: record.sandbox_id, ...this.#endpoint(record, "GET /api/sandboxes") };
    });
  }

  /** {@inheritDoc SandboxBackend.isAlive} */
  async isAlive(id: string): Promise<boolean> {
    return (await this.#status(id))?.status === "Running";
  }
}
