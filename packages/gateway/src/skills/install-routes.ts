/**
 * `POST /skills/install` (DeerFlow's: a `.skill` file already in a thread's
 * user data) and `POST /skills/upload` (ours: the archive in the request).
 */
import path from "node:path";
import { MAX_ARCHIVE_TOTAL_BYTES } from "@deerflow/skills";
import type { FastifyInstance, FastifyRequest, onRequestAsyncHookHandler } from "fastify";
import { GatewayError } from "../errors.js";
import { LocalUploadBatch } from "../files/local-upload-batch.js";
import { receiveUploads } from "../files/receive-uploads.js";
import { parseUserDataPath } from "../files/virtual-path.js";
import { guarded } from "../http/guarded.js";
import { copyArchive, privateDir } from "./archive-copy.js";
import { installBodySchema, installResponseSchema, skillUploadDoc } from "./schemas.js";
import type { SkillsRoutesOptions } from "./skills-routes-options.js";

const EXTENSION_MESSAGE = "File must have .skill extension";

function installed(name: string, userId: string): { success: true; skill_name: string; message: string } {
  return { success: true, skill_name: name, message: `Skill '${name}' installed successfully for user '${userId}'` };
}

/**
 * Registers the install routes (install only when thread files are configured).
 *
 * @param app - the skills plugin instance (with `@fastify/multipart` registered).
 * @param options - the plugin options.
 * @param admin - the admin gate.
 */
export function registerInstallRoutes(
  app: FastifyInstance,
  options: SkillsRoutesOptions,
  admin: onRequestAsyncHookHandler,
): void {
  const { backend, files } = options;
  const maxBytes = options.maxArchiveBytes ?? MAX_ARCHIVE_TOTAL_BYTES;

  async function installCopy(request: FastifyRequest, file: string): Promise<ReturnType<typeof installed>> {
    const userId = request.principal.userId;
    const skills = await backend.forUser(userId);
    try {
      const { name } = await skills.install(file);
      return installed(name, userId);
    } catch (err) {
      // The archive is a private copy: never show its host path.
      const code = (err as { code?: unknown }).code;
      if (code === "FILE_NOT_FOUND" || code === "INVALID_PATH")
        throw new GatewayError("INTERNAL", "Failed to install skill.", { cause: err });
      throw err;
    }
  }

  if (files !== undefined) {
    app.post<{ Body: { thread_id: string; path: string } }>(
      "/skills/install",
      {
        onRequest: admin,
        schema: {
          summary: "Install a .skill archive from a thread's /mnt/user-data (admin)",
          tags: ["skills"],
          body: installBodySchema,
          response: { 200: installResponseSchema },
          "x-errors": [400, 403, 404, 409],
        },
      },
      async (request) =>
        guarded("Failed to install skill.", async () => {
          const { thread_id: threadId, path: rawPath } = request.body;
          const target = parseUserDataPath(rawPath);
          await options.authorizeThread?.(request.principal, threadId);
          const opened = await files
            .open({ userId: request.principal.userId, threadId }, target)
            .catch((err: unknown) => {
              if ((err as { code?: unknown }).code === "FILE_NOT_FOUND")
                throw new GatewayError("FILE_NOT_FOUND", `Skill file not found: ${target.virtualPath}`);
              throw err;
            });
          try {
            if (path.posix.extname(target.virtualPath) !== ".skill")
              throw new GatewayError("BAD_REQUEST", EXTENSION_MESSAGE);
            const tmp = await privateDir(options.tempDir);
            try {
              return await installCopy(request, await copyArchive(opened.read(), tmp.dir, maxBytes));
            } finally {
              await tmp.dispose();
            }
          } finally {
            await opened.close();
          }
        }),
    );
  }

  app.post(
    "/skills/upload",
    {
      onRequest: admin,
      schema: {
        summary: "Upload and install one .skill archive (multipart field 'file'; admin)",
        description:
          "Not in DeerFlow: the archive comes in the request instead of a thread's files. Same checks, scans and answers as /skills/install.",
        tags: ["skills"],
        response: { 200: installResponseSchema },
        "x-multipart": skillUploadDoc,
        "x-errors": [400, 403, 409, 413, 415],
      },
    },
    async (request) =>
      guarded("Failed to install skill.", async () => {
        const tmp = await privateDir(options.tempDir);
        try {
          const batch = new LocalUploadBatch(tmp.dir);
          let stored;
          try {
            await receiveUploads(
              request,
              batch,
              { maxFiles: 1, maxFileBytes: maxBytes, maxTotalBytes: maxBytes },
              (name) => {
                if (path.extname(name) !== ".skill") throw new GatewayError("BAD_REQUEST", EXTENSION_MESSAGE);
              },
            );
            stored = await batch.commit();
          } catch (err) {
            await batch.abort();
            if (GatewayError.isInstance(err) && err.code === "TOO_MANY_FILES")
              throw new GatewayError("BAD_REQUEST", "Upload exactly one .skill file.");
            throw err;
          }
          const file = stored[0];
          if (file === undefined) throw new GatewayError("BAD_REQUEST", "Upload exactly one .skill file.");
          return await installCopy(request, path.join(tmp.dir, file.filename));
        } finally {
          await tmp.dispose();
        }
      }),
  );
}
