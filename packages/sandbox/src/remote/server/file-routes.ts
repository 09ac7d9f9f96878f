/**
 * `/sandboxes/:id/v1/file/*`: read, write, list, find, grep and download.
 */
import path from "node:path";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { SandboxError } from "../../errors.js";
import { DEFAULT_LIST_DEPTH } from "../../limits.js";
import type { GrepOptions, GlobOptions } from "../../sandbox.js";
import type {
  Envelope,
  FileFindData,
  FileFindRequest,
  FileGrepData,
  FileGrepRequest,
  FileListData,
  FileListRequest,
  FileReadData,
  FileReadRequest,
  FileWriteData,
  FileWriteRequest,
} from "../wire/types.js";
import {
  downloadQuerySchema,
  fileFindSchema,
  fileGrepSchema,
  fileListSchema,
  fileReadSchema,
  fileWriteSchema,
  sandboxParamsSchema,
} from "./schemas.js";
import { principalOf } from "./request-principal.js";
import type { HostedSandbox, SandboxRegistry } from "./sandbox-registry.js";
import { SANDBOX_ROUTE_PREFIX } from "./shell-routes.js";

type Params = { id: string };

// A flat character class: a grouped `(?:....)*` form overflows V8's regex stack on megabytes of input.
const BASE64_CHARS = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * Decodes strict base64 (`Buffer.from` would silently skip invalid characters).
 *
 * @param content - The encoded text.
 * @returns The bytes.
 * @throws SandboxError `INVALID_ARGUMENT` on anything but canonical padded base64.
 */
export function decodeBase64(content: string): Uint8Array {
  if (content.length % 4 !== 0 || !BASE64_CHARS.test(content))
    throw new SandboxError("INVALID_ARGUMENT", "content is not valid base64");
  return Buffer.from(content, "base64");
}

/**
 * Depth of a `/v1/file/list` request: `max_depth`, else 2 when recursive, else 1.
 *
 * @param body - The request.
 * @returns The `maxDepth` to pass to `listDir`.
 */
export function listDepth(body: FileListRequest): number {
  return body.max_depth ?? (body.recursive === true ? DEFAULT_LIST_DEPTH : 1);
}

function contentDisposition(file: string): string {
  const name = path.posix.basename(file) || "download";
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, "_");
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/**
 * Registers the file routes.
 *
 * @param app - The Fastify instance.
 * @param registry - The hosted sandboxes.
 */
export function registerFileRoutes(app: FastifyInstance, registry: SandboxRegistry): void {
  const route = (suffix: string): string => `${SANDBOX_ROUTE_PREFIX}/v1/file/${suffix}`;
  // The caller's own sandboxes only: another client's id answers 404 like a missing one.
  const owned = (request: FastifyRequest<{ Params: Params }>): HostedSandbox =>
    registry.require(principalOf(request).clientId, request.params.id);

  app.post<{ Params: Params; Body: FileReadRequest }>(
    route("read"),
    { schema: { params: sandboxParamsSchema, body: fileReadSchema } },
    async (request): Promise<Envelope<FileReadData>> => {
      const { file, start_line, end_line } = request.body;
      const content = await owned(request).sandbox.readFile(file, {
        ...(start_line === undefined ? {} : { startLine: start_line + 1 }),
        ...(end_line === undefined ? {} : { endLine: end_line }),
      });
      return { success: true, data: { file, content } };
    },
  );

  app.post<{ Params: Params; Body: FileWriteRequest }>(
    route("write"),
    { schema: { params: sandboxParamsSchema, body: fileWriteSchema } },
    async (request): Promise<Envelope<FileWriteData>> => {
      const { file, content, encoding, append } = request.body;
      const { sandbox } = owned(request);
      if (encoding === "base64") {
        if (append === true)
          throw new SandboxError("INVALID_ARGUMENT", "append cannot be combined with base64 encoding");
        const bytes = decodeBase64(content);
        await sandbox.writeBytes(file, bytes);
        return { success: true, data: { file, bytes_written: bytes.byteLength } };
      }
      await sandbox.writeFile(file, content, append === true ? { append: true } : {});
      return { success: true, data: { file, bytes_written: Buffer.byteLength(content, "utf8") } };
    },
  );

  app.post<{ Params: Params; Body: FileListRequest }>(
    route("list"),
    { schema: { params: sandboxParamsSchema, body: fileListSchema } },
    async (request): Promise<Envelope<FileListData>> => {
      const entries = await owned(request).sandbox.listDir(request.body.path, { maxDepth: listDepth(request.body) });
      const files = entries.map((entry) => {
        const isDirectory = entry.endsWith("/") && entry.length > 1;
        const bare = isDirectory ? entry.slice(0, -1) : entry;
        return { name: path.posix.basename(bare), path: bare, is_directory: isDirectory };
      });
      return { success: true, data: { path: request.body.path, files, total_count: files.length } };
    },
  );

  app.post<{ Params: Params; Body: FileFindRequest }>(
    route("find"),
    { schema: { params: sandboxParamsSchema, body: fileFindSchema } },
    async (request): Promise<Envelope<FileFindData>> => {
      const { path: root, glob, include_dirs, max_results } = request.body;
      const options: GlobOptions = {
        ...(include_dirs === undefined ? {} : { includeDirs: include_dirs }),
        ...(max_results === undefined ? {} : { maxResults: max_results }),
      };
      const result = await owned(request).sandbox.glob(root, glob, options);
      return { success: true, data: { path: root, files: result.matches, truncated: result.truncated } };
    },
  );

  app.post<{ Params: Params; Body: FileGrepRequest }>(
    route("grep"),
    { schema: { params: sandboxParamsSchema, body: fileGrepSchema } },
    async (request): Promise<Envelope<FileGrepData>> => {
      const { path: root, pattern, case_insensitive, fixed_strings, max_results, glob } = request.body;
      const options: GrepOptions = {
        ...(glob === undefined ? {} : { glob }),
        ...(fixed_strings === undefined ? {} : { literal: fixed_strings }),
        ...(case_insensitive === undefined ? {} : { caseSensitive: !case_insensitive }),
        ...(max_results === undefined ? {} : { maxResults: max_results }),
      };
      const result = await owned(request).sandbox.grep(root, pattern, options);
      const matches = result.matches.map((m) => ({ file: m.path, line_number: m.line, line: m.text }));
      return { success: true, data: { path: root, matches, truncated: result.truncated } };
    },
  );

  app.get<{ Params: Params; Querystring: { path: string } }>(
    `${SANDBOX_ROUTE_PREFIX}/v1/file/download`,
    { schema: { params: sandboxParamsSchema, querystring: downloadQuerySchema } },
    async (request, reply) => {
      const bytes = await owned(request).sandbox.readBytes(request.query.path);
      return reply
        .type("application/octet-stream")
        .header("content-disposition", contentDisposition(request.query.path))
        .send(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    },
  );
}
