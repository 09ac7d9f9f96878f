/**
 * Thread files routes (mounted under `/api`): uploads, listings and artifacts
 * of a thread's `/mnt/user-data`.
 */
import multipart from "@fastify/multipart";
import { MAX_ARCHIVE_TOTAL_BYTES } from "@deerflow/skills";
import type { FastifyPluginAsync, FastifyRequest } from "fastify";
import type { ThreadAuthorizer } from "../auth/thread-access.js";
import { successMessageSchema, threadParamsSchema } from "../schemas.js";
import { registerArtifactRoute } from "./artifact-route.js";
import { writeMarkdownCompanions, type DocumentConverter } from "./document-converter.js";
import { toWireFileInfo } from "./file-info-wire.js";
import { deleteMarkdownCompanion } from "./markdown-companion.js";
import { DEFAULT_UPLOAD_LIMITS, receiveUploads, type UploadLimits } from "./receive-uploads.js";
import { existingFilename } from "./safe-filename.js";
import {
  deleteUploadParamsSchema,
  threadFilesSchema,
  uploadLimitsSchema,
  uploadListSchema,
  uploadMultipartDoc,
  uploadResponseSchema,
} from "./schemas.js";
import type { ArchivePreviewOptions } from "./skill-archive-member.js";
import type { ThreadFileInfo, ThreadFiles, ThreadScope } from "./thread-files.js";

/** Options of {@link filesRoutes}. */
export interface FilesRoutesOptions {
  /** Where thread files live (e.g. `new LocalThreadFiles({ root })`). */
  readonly files: ThreadFiles;
  /** Upload limits (defaults in `DEFAULT_UPLOAD_LIMITS`). */
  readonly uploads?: UploadLimits;
  /** Per-thread authorization, run before any file access. */
  readonly authorizeThread?: ThreadAuthorizer;
  /**
   * Previews of files inside `.skill` archives: largest archive copied (default 512 MiB, the
   * install's), largest member (default 16 MiB), temp folder of the private copy.
   */
  readonly archivePreview?: Partial<ArchivePreviewOptions>;
  /** Gives accepted uploads (PDF, DOCX...) a Markdown companion (DeerFlow's `uploads.auto_convert_documents`). */
  readonly documentConverter?: DocumentConverter;
}

type ThreadParams = { thread_id: string };

/**
 * The thread files plugin. Routes (relative to its prefix, `/api` in the gateway):
 *
 * - `POST /threads/:thread_id/uploads` (multipart, one or more files) → `{success, files, message, skipped_files}`;
 *   a name repeated in the request is stored as `name_1.ext`, `name_2.ext`...
 * - `GET /threads/:thread_id/uploads/limits` → `{max_files, max_file_size, max_total_size}`
 * - `GET /threads/:thread_id/uploads/list` → `{files, count}`
 * - `DELETE /threads/:thread_id/uploads/:filename` → `{success, message}`; also removes the file's generated
 *   Markdown companion (while unchanged since it was generated)
 * - `GET|HEAD /threads/:thread_id/artifacts/*` → the file at that virtual path, or a member of a `.skill`
 *   archive on it (`?download=true` for an attachment; one `Range` per request)
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
  await app.register(multipart, {
    throwFileSizeLimit: false,
    limits: { fileSize: limits.maxFileBytes, files: limits.maxFiles },
  });

  async function scopeOf(request: FastifyRequest<{ Params: ThreadParams }>): Promise<ThreadScope> {
    const threadId = request.params.thread_id;
    await options.authorizeThread?.(request.principal, threadId);
    return { userId: request.principal.userId, threadId };
  }

  const wire = (threadId: string) => (f: ThreadFileInfo, originalFilename?: string) =>
    toWireFileInfo(`${prefix}/threads/${threadId}/artifacts`, f, originalFilename);

  app.post<{ Params: ThreadParams }>(
    "/threads/:thread_id/uploads",
    {
      schema: {
        summary: "Upload files into the thread's /mnt/user-data/uploads",
        description:
          `All files are stored or none is. A name repeated in the request is stored as name_1.ext, name_2.ext...; ` +
          `an earlier upload of the same name is replaced. Limits: ${limits.maxFileBytes} bytes per file, ` +
          `${limits.maxFiles} files, ${limits.maxTotalBytes} bytes in total.`,
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
        const received = await receiveUploads(request, batch, limits);
        const stored = await batch.commit();
        const originals = new Map(received.map((r) => [r.filename, r.originalFilename]));
        const toWire = wire(scope.threadId);
        const companions =
          options.documentConverter === undefined
            ? new Map<string, ThreadFileInfo>()
            : await writeMarkdownCompanions(files, scope, stored, options.documentConverter, request.log);
        return {
          success: true,
          files: stored.map((f) => {
            const md = companions.get(f.filename);
            const info = toWire(f, originals.get(f.filename));
            return md === undefined
              ? info
              : {
                  ...info,
                  markdown_file: md.filename,
                  markdown_virtual_path: md.path,
                  markdown_artifact_url: toWire(md).artifact_url,
                };
          }),
          message: `Successfully uploaded ${stored.length} file(s)`,
          skipped_files: [],
        };
      } finally {
        await batch.abort();
      }
    },
  );

  app.get<{ Params: ThreadParams }>(
    "/threads/:thread_id/uploads/limits",
    {
      schema: {
        summary: "The upload limits in force",
        tags: ["threads"],
        params: threadParamsSchema,
        response: { 200: uploadLimitsSchema },
        "x-errors": [403, 404],
      },
    },
    async (request) => {
      await scopeOf(request);
      return { max_files: limits.maxFiles, max_file_size: limits.maxFileBytes, max_total_size: limits.maxTotalBytes };
    },
  );

  app.get<{ Params: ThreadParams }>(
    "/threads/:thread_id/uploads/list",
    {
      schema: {
        summary: "List the thread's uploaded files",
        tags: ["threads"],
        params: threadParamsSchema,
        response: { 200: uploadListSchema },
        "x-errors": [403, 404],
      },
    },
    async (request) => {
      const scope = await scopeOf(request);
      const list = (await files.list(scope, "uploads")).map((f) => wire(scope.threadId)(f));
      return { files: list, count: list.length };
    },
  );

  app.delete<{ Params: ThreadParams & { filename: string } }>(
    "/threads/:thread_id/uploads/:filename",
    {
      schema: {
        summary: "Delete an uploaded file",
        tags: ["threads"],
        params: deleteUploadParamsSchema,
        response: { 200: successMessageSchema },
        "x-errors": [400, 403, 404],
      },
    },
    async (request) => {
      const filename = existingFilename(request.params.filename);
      const scope = await scopeOf(request);
      await files.deleteUpload(scope, filename);
      // DeerFlow §6.1: the generated Markdown companion goes with its document.
      await deleteMarkdownCompanion(files, scope, filename, request.log);
      return { success: true, message: `Deleted ${filename}` };
    },
  );

  registerArtifactRoute(app, {
    files,
    scopeOf,
    archivePreview: { maxArchiveBytes: MAX_ARCHIVE_TOTAL_BYTES, ...options.archivePreview },
  });

  app.get<{ Params: ThreadParams }>(
    "/threads/:thread_id/files",
    {
      schema: {
        summary: "List the thread's outputs (recursively) and uploads",
        tags: ["threads"],
        params: threadParamsSchema,
        response: { 200: threadFilesSchema },
        "x-errors": [403, 404],
      },
    },
    async (request) => {
      const scope = await scopeOf(request);
      const [outputs, uploads] = await Promise.all([
        files.list(scope, "outputs", { recursive: true }),
        files.list(scope, "uploads"),
      ]);
      const toWire = wire(scope.threadId);
      return { outputs: outputs.map((f) => toWire(f)), uploads: uploads.map((f) => toWire(f)) };
    },
  );
};
