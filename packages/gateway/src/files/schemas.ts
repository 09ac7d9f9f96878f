/**
 * JSON Schemas of the thread files routes.
 */
import { threadIdSchema } from "../schemas.js";

/** One listed file. */
export const fileInfoSchema = {
  type: "object",
  required: ["filename", "size", "path", "modified"],
  properties: {
    filename: { type: "string", description: "Path relative to its folder ('report.md', 'charts/q1.png')." },
    size: { type: "integer", description: "Bytes." },
    path: { type: "string", description: "Virtual path, e.g. /mnt/user-data/outputs/report.md." },
    modified: { type: "number", description: "Last modification, seconds since the epoch." },
    artifact_url: { type: "string", description: "Gateway URL serving the file." },
  },
} as const;

/** `POST /threads/:thread_id/uploads` response. */
export const uploadResponseSchema = {
  type: "object",
  required: ["success", "files", "message"],
  properties: { success: { type: "boolean" }, files: { type: "array", items: fileInfoSchema }, message: { type: "string" } },
} as const;

/** `GET /threads/:thread_id/uploads/list` response. */
export const uploadListSchema = {
  type: "object",
  required: ["files", "count"],
  properties: { files: { type: "array", items: fileInfoSchema }, count: { type: "integer" } },
} as const;

/** `GET /threads/:thread_id/files` response. */
export const threadFilesSchema = {
  type: "object",
  required: ["outputs", "uploads"],
  properties: { outputs: { type: "array", items: fileInfoSchema }, uploads: { type: "array", items: fileInfoSchema } },
} as const;

/** Documentation of the multipart upload body (not validated by Fastify). */
export const uploadMultipartDoc = {
  type: "object",
  required: ["files"],
  properties: { files: { type: "array", items: { type: "string", format: "binary" }, description: "One or more files (any field name)." } },
} as const;

/** Params of `DELETE /threads/:thread_id/uploads/:filename`. */
export const deleteUploadParamsSchema = {
  type: "object",
  required: ["thread_id", "filename"],
  properties: { thread_id: threadIdSchema, filename: { type: "string", minLength: 1, maxLength: 1024 } },
} as const;

/** Params of `GET /threads/:thread_id/artifacts/*`. */
export const artifactParamsSchema = {
  type: "object",
  required: ["thread_id", "*"],
  properties: { thread_id: threadIdSchema, "*": { type: "string", maxLength: 4096, description: "Virtual path without the leading '/', e.g. mnt/user-data/outputs/report.md." } },
} as const;

/** Query of the artifacts route. */
export const artifactQuerySchema = {
  type: "object",
  properties: { download: { type: "boolean", default: false, description: "Serve as an attachment (Content-Disposition: attachment)." } },
} as const;
