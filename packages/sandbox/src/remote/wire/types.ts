/**
 * Request and response bodies of the remote sandbox service, snake_case as on
 * the wire. The `/v1/*` routes follow the subset of the all-in-one sandbox
 * (`agent-infra/sandbox`) API that DeerFlow calls, namespaced under
 * `/sandboxes/:id` so one service hosts many sandboxes; `/api/sandboxes` is
 * the provisioner API DeerFlow's remote backend speaks.
 */

/** Header carrying the caller's key (a client key or the admin key). */
export const API_KEY_HEADER = "x-api-key";

/** Path prefix of one hosted sandbox; `sandbox_url` is the service's base URL plus this. */
export function sandboxPath(sandboxId: string): string {
  return `/sandboxes/${encodeURIComponent(sandboxId)}`;
}

/** Ids accepted by the service: they are used in URL paths. */
export const SANDBOX_ID_PATTERN = "^[A-Za-z0-9_-]{1,64}$";

/** `POST /api/sandboxes`. The three DeerFlow provisioning flags are accepted and ignored. */
export interface CreateSandboxRequest {
  readonly sandbox_id: string;
  readonly thread_id: string;
  /** Default `default`. */
  readonly user_id?: string;
  readonly include_legacy_skills?: boolean;
  readonly provision_lark_cli_runtime?: boolean;
  readonly provision_lark_cli_broker?: boolean;
}

/** One hosted sandbox (`POST`/`GET /api/sandboxes[/:id]`, items of the list). */
export interface SandboxRecord {
  readonly sandbox_id: string;
  readonly sandbox_url: string;
  /** Always `Running`: a sandbox the service knows about is up. */
  readonly status: "Running";
  readonly thread_id: string;
  readonly user_id: string;
  /** Client id of the key that created it; only in answers to the admin key. */
  readonly owner?: string;
}

/** `GET /api/sandboxes`: the caller's sandboxes (every client's for the admin key). */
export interface ListSandboxesResponse {
  readonly sandboxes: readonly SandboxRecord[];
}

/** `DELETE /api/sandboxes/:id`. */
export interface DeleteSandboxResponse {
  readonly sandbox_id: string;
  readonly deleted: true;
}

/** Success envelope of every `/v1/*` JSON route (the all-in-one sandbox's shape). */
export interface Envelope<T> {
  readonly success: true;
  readonly data: T;
}

/** `GET /v1/sandbox`: readiness and the home directory. */
export interface SandboxInfoData {
  readonly sandbox_id: string;
  readonly home_dir: string;
  readonly status: "Running";
}

/**
 * `POST /v1/shell/exec`. `timeout_ms` wins over `no_change_timeout` (seconds,
 * the all-in-one field), which is treated as a hard timeout here.
 */
export interface ShellExecRequest {
  readonly command: string;
  readonly no_change_timeout?: number;
  readonly timeout_ms?: number;
  /** Virtual working directory. */
  readonly cwd?: string;
  readonly env?: Readonly<Record<string, string>>;
}

/** Result of `POST /v1/shell/exec`: the whole `ExecuteResult` plus the combined `output`. */
export interface ShellExecData {
  /** `completed`, or `hard_timeout` when the timeout killed the command. */
  readonly status: "completed" | "hard_timeout";
  /** stdout, then stderr on a new line (the all-in-one field; no interleaving is kept). */
  readonly output: string;
  readonly stdout: string;
  readonly stderr: string;
  readonly exit_code: number | null;
  readonly signal: string | null;
  readonly timed_out: boolean;
  readonly truncated: boolean;
}

/** `POST /v1/file/read`: `start_line` is 0-based inclusive, `end_line` 0-based exclusive (= 1-based inclusive). */
export interface FileReadRequest {
  readonly file: string;
  readonly start_line?: number;
  readonly end_line?: number;
}

/** Result of `POST /v1/file/read`. */
export interface FileReadData {
  readonly file: string;
  readonly content: string;
}

/** `POST /v1/file/write`. `append` cannot be combined with `encoding: "base64"`. */
export interface FileWriteRequest {
  readonly file: string;
  readonly content: string;
  /** Default `utf-8`. */
  readonly encoding?: "utf-8" | "base64";
  readonly append?: boolean;
}

/** Result of `POST /v1/file/write`. */
export interface FileWriteData {
  readonly file: string;
  readonly bytes_written: number;
}

/** `POST /v1/file/list`: depth is `max_depth`, else 2 when `recursive`, else 1. */
export interface FileListRequest {
  readonly path: string;
  readonly recursive?: boolean;
  readonly max_depth?: number;
}

/** One entry of a listing (sorted as the sandbox returned them). */
export interface FileListEntry {
  readonly name: string;
  /** Virtual path without a trailing slash. */
  readonly path: string;
  readonly is_directory: boolean;
}

/** Result of `POST /v1/file/list`. */
export interface FileListData {
  readonly path: string;
  readonly files: readonly FileListEntry[];
  readonly total_count: number;
}

/** `POST /v1/file/find`. */
export interface FileFindRequest {
  readonly path: string;
  readonly glob: string;
  readonly include_dirs?: boolean;
  readonly max_results?: number;
}

/** Result of `POST /v1/file/find`. */
export interface FileFindData {
  readonly path: string;
  readonly files: readonly string[];
  readonly truncated: boolean;
}

/** `POST /v1/file/grep`. An absent `case_insensitive` keeps the sandbox default (case-insensitive). */
export interface FileGrepRequest {
  readonly path: string;
  readonly pattern: string;
  readonly case_insensitive?: boolean;
  readonly fixed_strings?: boolean;
  readonly max_results?: number;
  readonly glob?: string;
}

/** One grep hit on the wire. */
export interface GrepMatchWire {
  readonly file: string;
  /** 1-based. */
  readonly line_number: number;
  readonly line: string;
}

/** Result of `POST /v1/file/grep`. */
export interface FileGrepData {
  readonly path: string;
  readonly matches: readonly GrepMatchWire[];
  readonly truncated: boolean;
}
