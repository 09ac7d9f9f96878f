/**
 * The wire shape of a thread file (DeerFlow's `UploadedFileInfo`, without
 * its host path).
 */
import type { WireFileInfo } from "../wire-types.js";
import type { ThreadFileInfo } from "./thread-files.js";

/**
 * @param artifactsBase - the thread's artifacts URL, e.g. `/api/threads/t1/artifacts`.
 * @param info - the stored file.
 * @param originalFilename - the client's name for an upload, reported when it differs from `info.filename`.
 * @returns the wire object.
 * @example
 * ```ts
 * toWireFileInfo("/api/threads/t1/artifacts", { filename: "a b.txt", size: 1, path: "/mnt/user-data/uploads/a b.txt", modified: 0 });
 * // artifact_url: "/api/threads/t1/artifacts/mnt/user-data/uploads/a%20b.txt"
 * ```
 */
export function toWireFileInfo(artifactsBase: string, info: ThreadFileInfo, originalFilename?: string): WireFileInfo {
  const url = `${artifactsBase}${info.path.split("/").map(encodeURIComponent).join("/")}`;
  return {
    filename: info.filename,
    size: info.size,
    path: info.path,
    virtual_path: info.path,
    modified: info.modified,
    artifact_url: url,
    ...(originalFilename === undefined || originalFilename === info.filename
      ? {}
      : { original_filename: originalFilename }),
  };
}
