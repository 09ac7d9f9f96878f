/**
 * `@deerflow/sandbox/server`: the remote sandbox service (`createSandboxServer`)
 * and its wire format, for operators embedding it and for clients in other languages.
 */
export { createSandboxServer, DEFAULT_BODY_LIMIT, type SandboxServerOptions } from "./create-sandbox-server.js";
export { DEFAULT_SERVER_LIMITS } from "./server-config.js";
export { ADMIN_CLIENT_ID, CLIENT_ID_PATTERN, DEFAULT_CLIENT_ID, type ClientKey } from "./auth.js";
export {
  HTTP_STATUS_BY_CODE,
  type ServiceErrorCode,
  type WireError,
  type WireErrorBody,
  type WireErrorCode,
} from "../wire/errors.js";
export {
  API_KEY_HEADER,
  SANDBOX_ID_PATTERN,
  sandboxPath,
  type CreateSandboxRequest,
  type DeleteSandboxResponse,
  type Envelope,
  type FileFindData,
  type FileFindRequest,
  type FileGrepData,
  type FileGrepRequest,
  type FileListData,
  type FileListEntry,
  type FileListRequest,
  type FileReadData,
  type FileReadRequest,
  type FileWriteData,
  type FileWriteRequest,
  type GrepMatchWire,
  type ListSandboxesResponse,
  type SandboxInfoData,
  type SandboxRecord,
  type ShellExecData,
  type ShellExecRequest,
} from "../wire/types.js";
