/**
 * JSON Schemas of the service's routes. Every body rejects unknown members
 * (`additionalProperties: false`; the server's ajv does not strip them) and
 * bounds its strings so a hostile client cannot make the server work hard
 * before the sandbox sees the request.
 */
import { SANDBOX_ID_PATTERN } from "../wire/types.js";
import { CLIENT_ID_PATTERN } from "./auth.js";

// Paths and patterns are otherwise passed through: the sandbox owns their semantics and error codes.
const virtualPath = { type: "string", maxLength: 4096 } as const;
const pattern = { type: "string", maxLength: 4096 } as const;
// Numbers whose meaning the sandbox owns (line ranges, depths, caps, timeouts) are passed
// through for it to validate, so a client gets the sandbox's own error message.
const sandboxNumber = { type: "number" } as const;
const identity = { type: "string", minLength: 1, maxLength: 256 } as const;
const sandboxId = { type: "string", pattern: SANDBOX_ID_PATTERN } as const;

/** Route params of `/api/sandboxes/:id` and `/sandboxes/:id/...`. */
export const sandboxParamsSchema = {
  type: "object",
  required: ["id"],
  properties: { id: sandboxId },
} as const;

/** Query of `GET` / `DELETE /api/sandboxes/:id`: the admin key names the owner. */
export const ownerQuerySchema = {
  type: "object",
  additionalProperties: false,
  properties: { owner: { type: "string", pattern: CLIENT_ID_PATTERN } },
} as const;

/** `POST /api/sandboxes`. */
export const createSandboxSchema = {
  type: "object",
  additionalProperties: false,
  required: ["sandbox_id", "thread_id"],
  properties: {
    sandbox_id: sandboxId,
    thread_id: identity,
    user_id: identity,
    include_legacy_skills: { type: "boolean" },
    provision_lark_cli_runtime: { type: "boolean" },
    provision_lark_cli_broker: { type: "boolean" },
  },
} as const;

/** `POST /v1/shell/exec`. */
export const shellExecSchema = {
  type: "object",
  additionalProperties: false,
  required: ["command"],
  properties: {
    command: { type: "string", maxLength: 1_000_000 },
    no_change_timeout: { type: "number", exclusiveMinimum: 0, maximum: 86_400 },
    timeout_ms: sandboxNumber,
    cwd: virtualPath,
    // Names are checked by the sandbox (its message names the bad variable).
    env: {
      type: "object",
      maxProperties: 256,
      propertyNames: { maxLength: 256 },
      additionalProperties: { type: "string", maxLength: 131_072 },
    },
  },
} as const;

/** `POST /v1/file/read`. */
export const fileReadSchema = {
  type: "object",
  additionalProperties: false,
  required: ["file"],
  properties: {
    file: virtualPath,
    start_line: sandboxNumber,
    end_line: sandboxNumber,
  },
} as const;

/** `POST /v1/file/write`. */
export const fileWriteSchema = {
  type: "object",
  additionalProperties: false,
  required: ["file", "content"],
  properties: {
    file: virtualPath,
    content: { type: "string" },
    encoding: { type: "string", enum: ["utf-8", "base64"] },
    append: { type: "boolean" },
  },
} as const;

/** `POST /v1/file/list`. */
export const fileListSchema = {
  type: "object",
  additionalProperties: false,
  required: ["path"],
  properties: {
    path: virtualPath,
    recursive: { type: "boolean" },
    max_depth: sandboxNumber,
  },
} as const;

/** `POST /v1/file/find`. */
export const fileFindSchema = {
  type: "object",
  additionalProperties: false,
  required: ["path", "glob"],
  properties: {
    path: virtualPath,
    glob: pattern,
    include_dirs: { type: "boolean" },
    max_results: sandboxNumber,
  },
} as const;

/** `POST /v1/file/grep`. */
export const fileGrepSchema = {
  type: "object",
  additionalProperties: false,
  required: ["path", "pattern"],
  properties: {
    path: virtualPath,
    pattern,
    case_insensitive: { type: "boolean" },
    fixed_strings: { type: "boolean" },
    max_results: sandboxNumber,
    glob: pattern,
  },
} as const;

/** `GET /v1/file/download?path=`. */
export const downloadQuerySchema = {
  type: "object",
  additionalProperties: false,
  required: ["path"],
  properties: { path: virtualPath },
} as const;
