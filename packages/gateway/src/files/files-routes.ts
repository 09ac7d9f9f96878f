/**
 * Thread files routes (mounted under `/api`): uploads, listings and artifacts
 * of a thread's `/mnt/user-data`.
 */
import multipart from "@fastify/multipart";
import type { FastifyPluginAsync, FastifyRequest } from "fastify";
import type { ThreadAuthorizer } from "../auth/thread-access.js";
import { successMessageSchema, threadParamsSchema } from "../schemas.js";
import { contentDisposition, contentTypeFor, isActiveContent } from "./content-type.js";
import { DEFAULT_UPLOAD_LIMITS, receiveUploads, type UploadLimits } from "./receive-uploads.js";
import { existingFilename } from "./safe-filename.js";
import {
  artifactParamsSchema,
  artifactQuerySchema,
  deleteUploadParamsSchema,
  threadFilesSchema,
  uploadListSchema,
  uploadMultipartDoc,
  uploadResponseSchema,
} from "./schemas.js";
import type { ThreadFileInfo, ThreadFiles, ThreadScope } from "./thread-files.js";
import { parseUserDataPath } from "./virtual-path.js";

/** Options of {@link filesRoutes}. */
export interface FilesRoutesOptions {
  /** Where thread files live (e.g. `new LocalThreadFiles({ root })`). */
  readonly files: ThreadFiles;
  /** Upload limits (defaults in `DEFAULT_UPLOAD_LIMITS`). */
  readonly uploads?: UploadLimits;
  /** Per-thread authorization, run before any file access. */
  readonly authorizeThread?: ThreadAuthorizer;
}

type ThreadParams = { thread_id: string };

/**
 * The thread files plugin. Routes (relative to its prefix, `/api` in the gateway):
 *
 * - `POST /threads/:thread_id/uploads` (multipart, one or more files) → `{success, files, message}`
 * - `GET /threads/:thread_id/uploads/list` → `{files, count}`
 * - `DELETE /threads/:thread_id/uploads/:filename` → `{success, message}`
 * - `GET /threads/:thread_id/artifacts/*` → the file at that virtual path (`?download=true` for an attachment)
 * - `GET /threads/:thread_id/files` → `{outputs, uploads}` (outputs recursively)
 *
 * @example
 * ```ts
 * await app.register(filesRoutes, { prefix: "/api", files: new LocalThreadFiles({ root: ".deer-flow" }) });
 * ```
 */
export const filesRoutes: FastifyPluginAsync<FilesRoutesOptions> = async (app, options) => {
  const files = options.files;
  const limits = { ...DEFAULT_UPLOAD_LIMITS, ...options.uploads };
  const prefix = app.prefix;
  // The multipart parser is scoped to this plugin: other routes answer multipart bodies with 415.
  await app.register(multipart, { throwFileSizeLimit: false, limits: { fileSize: limits.maxFileBytes, files: limits.maxFiles } });

  async function scopeOf(request: FastifyRequest<{ Params: ThreadParams }>): Promise<ThreadScope> {
    const threadId = request.params.thread_id;
    await options.authorizeThread?.(request.principal, threadId);
    return { userId: request.principal.userId, threadId };
  }

  const withUrl = (threadId: string) => (f: ThreadFileInfo) => ({ ...f, artifact_url: `${prefix}/threads/${threadId}/artifacts${f.path}` });

  app.post<{ Params: ThreadParams }>(
    "/threads/:thread_id/uploads",
    {
      schema: {
        summary: "Upload files into the thread's /mnt/user-data/uploads",
        description: `All files are stored or none is. Limits: ${limits.maxFileBytes} bytes per file, ${limits.maxFiles} files, ${limits.maxTotalBytes} bytes in total.`,
        tags: ["threads"],
        params: threadParamsSchema,
        response: { 200: uploadResponseSchema },
        "x-multipart": uploadMultipartDoc,
        "x-errors": [400, 403, 404, 413, 415],
      },
    },
    async (request) => {
      const scope = await scopeOf(request);
      const batch = await files.beginUpload(scope);
      try {
        await receiveUploads(request, batch, limits);
        const stored = await batch.commit();
        return { success: true, files: stored.map(withUrl(scope.threadId)), message: `Successfully uploaded ${stored.length} file(s)` };
      } finally {
        await batch.abort();
      }
    },
  );

  app.get<{ Params: ThreadParams }>(
    "/threads/:thread_id/uploads/list",
    { schema: { summary: "List the thread's uploaded files", tags: ["threads"], params: threadParamsSchema, response: { 200: uploadListSchema }, "x-errors": [403, 404] } },
    async (request) => {
      const scope = await scopeOf(request);
      const list = (await files.list(scope, "uploads")).map(withUrl(scope.threadId));
      return { files: list, count: list.length };
    },
  );

  app.delete<{ Params: ThreadParams & { filename: string } }>(
    "/threads/:thread_id/uploads/:filename",
    { schema: { summary: "Delete an uploaded file", tags: ["threads"], params: deleteUploadParamsSchema, response: { 200: successMessageSchema }, "x-errors": [400, 403, 404] } },
    async (request) => {
      const filename = existingFilename(request.params.filename);
      const scope = await scopeOf(request);
      await files.deleteUpload(scope, filename);
      return { success: true, message: `Deleted ${filename}` };
    },
  );

  app.get<{ Params: ThreadParams & { "*": string }; Querystring: { download?: boolean } }>(
    "/threads/:thread_id/artifacts/*",
    {
      schema: {
        summary: "Serve a file of the thread's user data by virtual path",
        description: "E.g. /api/threads/t1/artifacts/mnt/user-data/outputs/report.md. HTML, SVG and XML are served with a sandboxing CSP.",
        tags: ["threads"],
        params: artifactParamsSchema,
        querystring: artifactQuerySchema,
        produces: ["application/octet-stream"],
        response: { 200: { description: "The file's bytes", type: "string", format: "binary" } },
        "x-errors": [400, 403, 404],
      },
    },
    async (request, reply) => {
      const target = parseUserDataPath(request.params["*"]);
      const scope = await scopeOf(request);
      const file = await files.open(scope, target);
      const type = contentTypeFor(file.name);
      const download = request.query.download === true;
      reply
        .header("content-type", type)
        .header("content-length", file.size)
        .header("last-modified", file.modified.toUTCString())
        .header("cache-control", "private, no-cache")
        .header("x-content-type-options", "nosniff")
        .header("content-disposition", contentDisposition(download ? "attachment" : "inline", file.name));
      // Agent-written HTML/SVG must not run script in the gateway's origin.
      if (!download && isActiveContent(type)) reply.header("content-security-policy", "sandbox");
      return reply.send(file.stream);
    },
  );

  app.get<{ Params: ThreadParams }>(
    "/threads/:thread_id/files",
    { schema: { summary: "List the thread's outputs (recursively) and uploads", tags: ["threads"], params: threadParamsSchema, response: { 200: threadFilesSchema }, "x-errors": [403, 404] } },
    async (request) => {
      const scope = await scopeOf(request);
      const [outputs, uploads] = await Promise.all([files.list(scope, "outputs", { recursive: true }), files.list(scope, "uploads")]);
      return { outputs: outputs.map(withUrl(scope.threadId)), uploads: uploads.map(withUrl(scope.threadId)) };
    },
  );
};
