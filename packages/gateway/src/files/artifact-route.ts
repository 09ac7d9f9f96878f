/**
 * `GET|HEAD /threads/:thread_id/artifacts/*`: a file of the thread's user data
 * by virtual path, or one file inside a `.skill` archive there, with byte
 * ranges so large outputs resume and media seeks.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { GatewayError } from "../errors.js";
import { entityTag, ifRangeAllows, parseByteRange, type RangeDecision } from "./byte-range.js";
import { contentDisposition, contentTypeFor, isActiveContent } from "./content-type.js";
import { artifactParamsSchema, artifactQuerySchema } from "./schemas.js";
import { openSkillArchiveMember, type ArchivePreviewOptions } from "./skill-archive-member.js";
import { splitSkillArchivePath } from "./skill-archive-path.js";
import type { ByteRange, OpenedThreadFile, ThreadFiles, ThreadScope } from "./thread-files.js";
import { parseUserDataPath, type UserDataPath } from "./virtual-path.js";

type ArtifactRequest = FastifyRequest<{
  Params: { thread_id: string; "*": string };
  Querystring: { download?: boolean };
}>;

/** What the route needs from the files plugin. */
export interface ArtifactRouteOptions {
  readonly files: ThreadFiles;
  /** Authorizes the thread and names its storage owner. */
  readonly scopeOf: (request: FastifyRequest<{ Params: { thread_id: string } }>) => Promise<ThreadScope>;
  /** Limits of `.skill` member previews. */
  readonly archivePreview: ArchivePreviewOptions;
}

/** A body to serve and how. */
interface Artifact {
  readonly body: OpenedThreadFile;
  readonly contentType: string;
  readonly cacheControl: string;
}

const RANGE_NOT_SATISFIABLE_MESSAGE = "Requested range is not satisfiable";

async function openArtifact(
  options: ArtifactRouteOptions,
  scope: ThreadScope,
  target: UserDataPath,
): Promise<Artifact> {
  const split = splitSkillArchivePath(target);
  if (split !== undefined) {
    try {
      const member = await openSkillArchiveMember(options.files, scope, split, options.archivePreview);
      // Members cannot change without their archive changing; DeerFlow caches them for 5 minutes.
      return { body: member, contentType: member.contentType, cacheControl: "private, max-age=300" };
    } catch (err) {
      // A folder that merely ends in `.skill` is an ordinary path.
      if (!(GatewayError.isInstance(err) && err.code === "NOT_A_FILE")) throw err;
    }
  }
  const body = await options.files.open(scope, target);
  return { body, contentType: contentTypeFor(body.name), cacheControl: "private, no-cache" };
}

function decideRange(request: ArtifactRequest, size: number, etag: string, lastModified: string): RangeDecision {
  // RFC 9110 defines ranges for GET only; HEAD describes the whole file.
  if (request.method !== "GET") return { kind: "full" };
  const ifRange = request.headers["if-range"];
  if (Array.isArray(ifRange) || !ifRangeAllows(ifRange, etag, lastModified)) return { kind: "full" };
  return parseByteRange(request.headers.range, size);
}

async function serve(request: ArtifactRequest, reply: FastifyReply, artifact: Artifact): Promise<FastifyReply> {
  const { body, contentType } = artifact;
  const etag = entityTag(body.size, body.modified);
  const lastModified = body.modified.toUTCString();
  const decision = decideRange(request, body.size, etag, lastModified);
  reply.header("accept-ranges", "bytes");
  if (decision.kind === "unsatisfiable") {
    await body.close();
    reply.header("content-range", `bytes */${body.size}`);
    throw new GatewayError("RANGE_NOT_SATISFIABLE", RANGE_NOT_SATISFIABLE_MESSAGE);
  }
  // Even a whole-file answer names its last byte, so a file growing while it streams cannot outrun Content-Length.
  const range: ByteRange | undefined =
    decision.kind === "partial" ? decision.range : body.size > 0 ? { start: 0, end: body.size - 1 } : undefined;
  const download = request.query.download === true;
  reply
    .header("content-type", contentType)
    .header("content-length", range === undefined ? 0 : range.end - range.start + 1)
    .header("last-modified", lastModified)
    .header("etag", etag)
    .header("cache-control", artifact.cacheControl)
    .header("x-content-type-options", "nosniff")
    .header("content-disposition", contentDisposition(download ? "attachment" : "inline", body.name));
  // Agent-written HTML/SVG must not run script in the gateway's origin.
  if (!download && isActiveContent(contentType)) reply.header("content-security-policy", "sandbox");
  if (decision.kind === "partial")
    reply.code(206).header("content-range", `bytes ${decision.range.start}-${decision.range.end}/${body.size}`);
  if (request.method === "HEAD") {
    await body.close();
    return reply.send();
  }
  return reply.send(body.read(range));
}

/**
 * Registers the artifacts route (GET and HEAD; HEAD never reads the file).
 *
 * @param app - the files plugin instance.
 * @param options - storage, scope and preview limits.
 */
export function registerArtifactRoute(app: FastifyInstance, options: ArtifactRouteOptions): void {
  app.route<{ Params: { thread_id: string; "*": string }; Querystring: { download?: boolean } }>({
    method: ["GET", "HEAD"],
    url: "/threads/:thread_id/artifacts/*",
    schema: {
      summary: "Serve a file of the thread's user data by virtual path",
      description:
        "E.g. /api/threads/t1/artifacts/mnt/user-data/outputs/report.md. A path through a .skill archive " +
        "(.../outputs/x.skill/SKILL.md) serves that member of the archive. One byte range per request " +
        "(Range: bytes=a-b, a-, -n → 206; past the end → 416; several ranges → the whole file), If-Range by " +
        "ETag or Last-Modified. HTML, SVG and XML are served with a sandboxing CSP.",
      tags: ["threads"],
      params: artifactParamsSchema,
      querystring: artifactQuerySchema,
      produces: ["application/octet-stream"],
      response: {
        200: { description: "The file's bytes", type: "string", format: "binary" },
        206: { description: "The requested byte range", type: "string", format: "binary" },
      },
      "x-errors": [400, 403, 404, 413, 416],
    },
    handler: async (request, reply) => {
      const target = parseUserDataPath(request.params["*"]);
      const scope = await options.scopeOf(request);
      return serve(request, reply, await openArtifact(options, scope, target));
    },
  });
}
