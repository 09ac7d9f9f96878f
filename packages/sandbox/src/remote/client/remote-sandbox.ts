/**
 * {@link Sandbox} over the remote sandbox service's HTTP API.
 */
import { readBodyCapped } from "@deerflow/kernel";
import { SandboxError } from "../../errors.js";
import { DEFAULT_COMMAND_TIMEOUT_MS, MAX_READ_BYTES } from "../../limits.js";
import type {
  ExecuteOptions,
  ExecuteResult,
  GlobOptions,
  GrepMatch,
  GrepOptions,
  ReadFileOptions,
  Sandbox,
  SearchResult,
  WriteFileOptions,
} from "../../sandbox.js";
import { SerialQueue } from "../../internal/serial-queue.js";
import { callJson, envelopeData, exchange, type HttpCall } from "./http.js";
import { parseExecuteResult, parseGrepMatches, parseListing, parseStrings, truncatedFlag } from "./wire-parsing.js";

/** Default per-request timeout of file operations: 60 s. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;
/** Added to a command's timeout to get its request's timeout: 30 s. */
export const DEFAULT_EXECUTE_GRACE_MS = 30_000;

/**
 * JSON cannot carry NaN or ±Infinity (they become `null`), so such options are
 * rejected here with the contract's code; everything else is validated by the
 * remote sandbox, whose message comes back unchanged.
 */
function finite(name: string, value: number | undefined, rule = "a finite number"): number | undefined {
  if (value !== undefined && !Number.isFinite(value))
    throw new SandboxError("INVALID_ARGUMENT", `${name} must be ${rule}, got ${String(value)}`);
  return value;
}

/** Options of {@link RemoteSandbox}. */
export interface RemoteSandboxOptions {
  /** The sandbox id (the provider's deterministic id). */
  readonly id: string;
  /** The sandbox's base URL, e.g. `http://127.0.0.1:8080/sandboxes/<id>`. */
  readonly url: string;
  /** Sent as `X-API-Key`. */
  readonly apiKey?: string;
  /** Per-request timeout of everything but `execute`. Default {@link DEFAULT_REQUEST_TIMEOUT_MS}. */
  readonly requestTimeoutMs?: number;
  /** `execute` requests time out after the command's timeout plus this. Default {@link DEFAULT_EXECUTE_GRACE_MS}. */
  readonly executeGraceMs?: number;
  /** Default: the global `fetch`. */
  readonly fetch?: typeof fetch;
  /** Called when a request starts and when it ends (the provider's idle clock). */
  readonly onActivity?: () => void;
}

/**
 * A sandbox hosted by the remote sandbox service. Requests of one instance
 * are serialised in two lanes: commands run one at a time in call order (as
 * DeerFlow serialises each sandbox's shell session), and file operations run
 * one at a time in call order, so a write is never overtaken by a later read
 * and a long command does not block reading its progress. A caller's
 * `AbortSignal` cancels a queued command at once and a running one through
 * the connection. Failures are `SandboxError`s with
 * the code the service sent; network failures are `UNAVAILABLE`, timeouts
 * `TIMEOUT`, aborts `ABORTED`.
 *
 * @example
 * ```ts
 * const sandbox = new RemoteSandbox({ id, url: "http://127.0.0.1:8080/sandboxes/" + id, apiKey });
 * const { stdout } = await sandbox.execute("ls", { timeoutMs: 10_000 });
 * ```
 */
export class RemoteSandbox implements Sandbox {
  readonly id: string;
  readonly url: string;
  readonly #apiKey: string | undefined;
  readonly #timeoutMs: number;
  readonly #graceMs: number;
  readonly #fetch: typeof fetch;
  readonly #onActivity: (() => void) | undefined;
  readonly #commands = new SerialQueue();
  readonly #files = new SerialQueue();
  #closed = false;

  /** @param options - Id, URL, key, timeouts. */
  /**
   * Commands run on the sandbox service's machine, never on this one, so the
   * tools' host-command validation does not apply (as DeerFlow does for its
   * non-local providers).
   */
  readonly isolated = true;

  constructor(options: RemoteSandboxOptions) {
    this.id = options.id;
    this.url = options.url.replace(/\/+$/, "");
    this.#apiKey = options.apiKey;
    this.#timeoutMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    this.#graceMs = options.executeGraceMs ?? DEFAULT_EXECUTE_GRACE_MS;
    this.#fetch = options.fetch ?? globalThis.fetch;
    this.#onActivity = options.onActivity;
  }

  /** True while a request is queued or running. */
  get busy(): boolean {
    return this.#commands.size + this.#files.size > 0;
  }

  /** Makes every later call fail with `UNAVAILABLE` (the provider destroyed the sandbox). */
  close(): void {
    this.#closed = true;
  }

  /**
   * Readiness probe (`GET /v1/sandbox`), outside the request lanes.
   *
   * @param timeoutMs - Timeout of this probe.
   * @returns True when the service answers 2xx for this sandbox.
   */
  async ping(timeoutMs = 5_000): Promise<boolean> {
    try {
      await callJson(this.#call("GET", "/v1/sandbox", undefined, timeoutMs));
      return true;
    } catch {
      return false;
    }
  }

  #call(
    method: HttpCall["method"],
    route: string,
    body: unknown,
    timeoutMs = this.#timeoutMs,
    signal?: AbortSignal,
  ): HttpCall {
    return {
      method,
      url: `${this.url}${route}`,
      apiKey: this.#apiKey,
      body,
      timeoutMs,
      signal,
      fetch: this.#fetch,
      what: `${method} ${route.split("?")[0] ?? route}`,
    };
  }

  async #run<T>(task: () => Promise<T>, signal?: AbortSignal, lane = this.#files): Promise<T> {
    if (this.#closed) throw new SandboxError("UNAVAILABLE", `Sandbox ${this.id} has been destroyed`);
    return lane.run(async () => {
      this.#onActivity?.();
      try {
        return await task();
      } finally {
        this.#onActivity?.();
      }
    }, signal);
  }

  async #post(
    route: string,
    body: Record<string, unknown>,
    timeoutMs?: number,
    signal?: AbortSignal,
  ): Promise<Record<string, unknown>> {
    const call = this.#call("POST", route, body, timeoutMs, signal);
    return envelopeData((await callJson(call)).body, call.what);
  }

  /** {@inheritDoc Sandbox.execute} */
  execute(command: string, options: ExecuteOptions = {}): Promise<ExecuteResult> {
    return this.#run(
      async () => {
        const commandTimeoutMs = finite("timeoutMs", options.timeoutMs, "a positive number");
        const body = { command, timeout_ms: commandTimeoutMs, cwd: options.cwd, env: options.env };
        const requestTimeoutMs = Math.max(commandTimeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS, 0) + this.#graceMs;
        return parseExecuteResult(await this.#post("/v1/shell/exec", body, requestTimeoutMs, options.signal));
      },
      options.signal,
      this.#commands,
    );
  }

  /** {@inheritDoc Sandbox.readFile} */
  readFile(path: string, options: ReadFileOptions = {}): Promise<string> {
    const { startLine, endLine } = options;
    return this.#run(async () => {
      // The wire's start_line is 0-based; the server adds 1 back and the sandbox validates the range.
      const first = finite("startLine", startLine);
      const data = await this.#post("/v1/file/read", {
        file: path,
        start_line: first === undefined ? undefined : first - 1,
        end_line: finite("endLine", endLine),
      });
      if (typeof data.content !== "string")
        throw new SandboxError("UNAVAILABLE", "Sandbox service sent a malformed answer to POST /v1/file/read");
      return data.content;
    });
  }

  /** {@inheritDoc Sandbox.readBytes} */
  readBytes(path: string): Promise<Uint8Array> {
    return this.#run(async () => {
      const call = this.#call("GET", `/v1/file/download?path=${encodeURIComponent(path)}`, undefined);
      const tooLarge = (): SandboxError =>
        new SandboxError("TOO_LARGE", `File exceeds maximum download size of ${MAX_READ_BYTES} bytes`, { path });
      const answer = await exchange(call, (response) => readBodyCapped(response, MAX_READ_BYTES, tooLarge));
      return answer.value ?? new Uint8Array();
    });
  }

  /** {@inheritDoc Sandbox.writeFile} */
  writeFile(path: string, content: string, options: WriteFileOptions = {}): Promise<void> {
    return this.#run(async () => {
      await this.#post("/v1/file/write", { file: path, content, append: options.append });
    });
  }

  /** {@inheritDoc Sandbox.writeBytes} */
  writeBytes(path: string, data: Uint8Array): Promise<void> {
    return this.#run(async () => {
      const content = Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString("base64");
      await this.#post("/v1/file/write", { file: path, content, encoding: "base64" });
    });
  }

  /** {@inheritDoc Sandbox.listDir} */
  listDir(path: string, options: { readonly maxDepth?: number } = {}): Promise<readonly string[]> {
    return this.#run(async () =>
      parseListing(
        await this.#post("/v1/file/list", { path, recursive: true, max_depth: finite("maxDepth", options.maxDepth) }),
      ),
    );
  }

  /** {@inheritDoc Sandbox.glob} */
  glob(path: string, pattern: string, options: GlobOptions = {}): Promise<SearchResult<string>> {
    return this.#run(async () => {
      const data = await this.#post("/v1/file/find", {
        path,
        glob: pattern,
        include_dirs: options.includeDirs,
        max_results: finite("maxResults", options.maxResults),
      });
      return { matches: parseStrings(data.files, "POST /v1/file/find"), truncated: truncatedFlag(data) };
    });
  }

  /** {@inheritDoc Sandbox.grep} */
  grep(path: string, pattern: string, options: GrepOptions = {}): Promise<SearchResult<GrepMatch>> {
    return this.#run(async () => {
      const data = await this.#post("/v1/file/grep", {
        path,
        pattern,
        glob: options.glob,
        fixed_strings: options.literal,
        case_insensitive: options.caseSensitive === undefined ? undefined : !options.caseSensitive,
        max_results: finite("maxResults", options.maxResults),
      });
      return { matches: parseGrepMatches(data.matches), truncated: truncatedFlag(data) };
    });
  }
}
