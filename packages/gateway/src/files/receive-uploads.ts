/**
 * Streams the files of a multipart request into an {@link UploadBatch}, with
 * per-file, per-request count and total byte limits; all or nothing. Files of
 * the same name are all kept, renamed DeerFlow's way (`data_1.txt`).
 */
import type { FastifyRequest } from "fastify";
import { GatewayError } from "../errors.js";
import { clientBasename, uploadFilename } from "./safe-filename.js";
import type { UploadBatch } from "./thread-files.js";
import { claimUniqueName } from "./unique-name.js";

/** Limits of one upload request. */
export interface UploadLimits {
  /** Largest single file in bytes. Default 50 MiB. */
  readonly maxFileBytes?: number;
  /** Most files per request. Default 20. */
  readonly maxFiles?: number;
  /** Largest sum of file sizes per request in bytes. Default 200 MiB. */
  readonly maxTotalBytes?: number;
}

/** The defaults of {@link UploadLimits}. */
export const DEFAULT_UPLOAD_LIMITS: Required<UploadLimits> = Object.freeze({
  maxFileBytes: 50 * 1024 * 1024,
  maxFiles: 20,
  maxTotalBytes: 200 * 1024 * 1024,
});

/** Non-file fields accepted (and ignored) per request, and their largest size. */
const MAX_FIELDS = 20;
const MAX_FIELD_BYTES = 64 * 1024;

/** A received file, written to the batch under its safe name. */
export interface ReceivedFile {
  /** The name it is stored under: safe, and unique within the request. */
  readonly filename: string;
  /** The name the client sent, directories stripped (differs from `filename` when neutralised or renamed). */
  readonly originalFilename: string;
  readonly bytes: number;
}

function codeOf(err: unknown): string | undefined {
  return typeof err === "object" && err !== null ? ((err as { code?: unknown }).code as string | undefined) : undefined;
}

/**
 * Receives every file part of `request` into `batch` (non-file fields are ignored).
 * On failure the caller aborts the batch; nothing is committed here.
 *
 * @param request - a `multipart/form-data` request.
 * @param batch - where the files go.
 * @param limits - the limits (defaults filled in).
 * @param sink - optional hook per file name before writing (e.g. to check the extension).
 * @returns the received files, in request order, with distinct names: a repeated name gets
 *   `_1`, `_2`... before its extension (see `claimUniqueName`).
 * @throws GatewayError `UNSUPPORTED_MEDIA_TYPE` (not multipart), `FILE_TOO_LARGE`, `TOO_MANY_FILES`,
 *   `PAYLOAD_TOO_LARGE` (total), `INVALID_FILENAME`, `BAD_REQUEST` (no file).
 */
export async function receiveUploads(
  request: FastifyRequest,
  batch: UploadBatch,
  limits: Required<UploadLimits>,
  sink?: (filename: string) => void,
): Promise<ReceivedFile[]> {
  if (!request.isMultipart()) throw new GatewayError("UNSUPPORTED_MEDIA_TYPE", "Request must be multipart/form-data.");
  const received: ReceivedFile[] = [];
  const claimed = new Set<string>();
  let total = 0;
  try {
    const parts = request.parts({
      // Keep the client's name as sent: uploadFilename strips directories itself and reports the original.
      preservePath: true,
      limits: {
        fileSize: limits.maxFileBytes,
        files: limits.maxFiles,
        fields: MAX_FIELDS,
        fieldSize: MAX_FIELD_BYTES,
        parts: limits.maxFiles + MAX_FIELDS,
      },
    });
    for await (const part of parts) {
      if (part.type !== "file") continue;
      const filename = claimUniqueName(uploadFilename(part.filename), claimed);
      sink?.(filename);
      async function* counted(source: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
        for await (const chunk of source) {
          total += chunk.length;
          if (total > limits.maxTotalBytes) {
            throw new GatewayError(
              "PAYLOAD_TOO_LARGE",
              `Upload too large: the files exceed ${limits.maxTotalBytes} bytes in total.`,
            );
          }
          yield chunk;
        }
      }
      const bytes = await batch.add(filename, counted(part.file));
      if (part.file.truncated) {
        throw new GatewayError(
          "FILE_TOO_LARGE",
          `File too large: ${JSON.stringify(filename)} exceeds the ${limits.maxFileBytes}-byte limit.`,
        );
      }
      received.push({ filename, originalFilename: clientBasename(part.filename), bytes });
    }
  } catch (err) {
    if (codeOf(err) === "FST_FILES_LIMIT")
      throw new GatewayError("TOO_MANY_FILES", `Too many files: at most ${limits.maxFiles} per request.`, {
        cause: err,
      });
    throw err;
  }
  if (received.length === 0) throw new GatewayError("BAD_REQUEST", "No files were uploaded.");
  return received;
}
