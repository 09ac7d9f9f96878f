/**
 * JSON Schemas of the thread files routes.
 */
import { threadIdSchema } from "../schemas.js";

/** One listed file. */
export const fileInfoSchema = {
  type: "object",
  required: ["filename", "size", "path", "virtual_path", "modified", "artifact_url"],
  properties: {
    filename: {
      type: "string",
      description:
        "Path relative to its folder ('report.md', 'charts/q1.png'); for an upload, the name it is stored under.",
    },
    size: { type: "integer", description: "Bytes." },
    path: {
      type: "string",
      description: "The virtual path again (DeerFlow puts a host path here; this gateway never sends one).",
    },
    virtual_path: { type: "string", description: "The path the agent sees, e.g. /mnt/user-data/uploads/report.pdf." },
    modified: { type: "number", description: "Last modification, seconds since the epoch." },
    artifact_url: { type: "string", description: "Gateway URL serving the file (path segments percent-encoded)." },
    original_filename: {
      type: "string",
      description:
        "Uploads only: the name the client sent, when the file is stored under another (a repeated name in the request, a neutralised name).",
    },
    markdown_file: {
      type: "string",
      description:
        "Uploads only, with document conversion on: the name of the Markdown companion written next to the upload.",
    },
    markdown_virtual_path: {
      type: "string",
      description: "Uploads only: the companion's virtual path, e.g. /mnt/user-data/uploads/report.md.",
    },
    markdown_artifact_url: { type: "string", description: "Uploads only: gateway URL serving the companion." },
  },
} as const;

/** `POST /threads/:thread_id/uploads` response. */
export const uploadResponseSchema = {
  type: "object",
  required: ["success", "files", "message", "skipped_files"],
  properties: {
    success: { type: "boolean" },
    files: { type: "array", items: fileInfoSchema },
    message: { type: "string" },
    skipped_files: {
      type: "array",
      items: { type: "string" },
      description: "Always empty: a name that cannot be made safe fails the whole request (DeerFlow skips it).",
    },
  },
} as const;

/** `GET /threads/:thread_id/uploads/limits` response. */
export const uploadLimitsSchema = {
  type: "object",
  required: ["max_files", "max_file_size", "max_total_size"],
  properties: {
    max_files: { type: "integer", description: "Most files per upload request." },
    max_file_size: { type: "integer", description: "Largest file in bytes." },
    max_total_size: { type: "integer", description: "Largest sum of file sizes per request in bytes." },
  },
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
  properties: {
    files: {
      type: "array",
      items: { type: "string", format: "binary" },
      description: "One or more files (any field name).",
    },
  },
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
  properties: {
    thread_id: threadIdSchema,
    "*": {
      type: "string",
      maxLength: 4096,
      description: "Virtual path without the leading '/', e.g. mnt/user-data/outputs/report.md.",
    },
  },
} as const;

/** Query of the artifacts route. */
export const artifactQuerySchema = {
  type: "object",
  properties: {
    download: {
      type: "boolean",
      default: false,
      description: "Serve as an attachment (Content-Disposition: attachment).",
    },
  },
} as const;
