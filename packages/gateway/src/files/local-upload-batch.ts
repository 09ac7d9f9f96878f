/**
 * An all-or-nothing set of uploads into one folder: each file is streamed to a
 * hidden temp file (`.upload-<uuid>.part`, the name DeerFlow's sandbox search
 * ignores) in the target folder, and renamed into place only when every file
 * has arrived. On any failure every temp file is removed.
 */
import { randomUUID } from "node:crypto";
import { createWriteStream, promises as fs } from "node:fs";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { GatewayError } from "../errors.js";
import { isMissing } from "./contained-path.js";
import type { ThreadFileInfo, UploadBatch } from "./thread-files.js";
import { virtualPathOf } from "./virtual-path.js";

interface Staged {
  readonly filename: string;
  readonly temp: string;
}

/** {@link UploadBatch} over a local folder (see the module comment). */
export class LocalUploadBatch implements UploadBatch {
  readonly #dir: string;
  #staged: Staged[] = [];
  #closed = false;

  /** @param dir - the existing, checked uploads folder. */
  constructor(dir: string) {
    this.#dir = dir;
  }

  async add(filename: string, data: AsyncIterable<Uint8Array>): Promise<number> {
    if (this.#closed) throw new Error("upload batch already finished");
    if (this.#staged.some((s) => s.filename === filename))
      throw new Error(`upload batch already holds ${JSON.stringify(filename)}`);
    const temp = path.join(this.#dir, `.upload-${randomUUID()}.part`);
    // Recorded before the first byte, so abort() removes it even if this call fails midway.
    this.#staged.push({ filename, temp });
    // flush: fsync before close, so a renamed file is complete on disk.
    const out = createWriteStream(temp, { flags: "wx", mode: 0o644, flush: true });
    try {
      await pipeline(data, out);
    } catch (err) {
      // pipeline rejects as soon as the source fails, possibly while the temp file's open is
      // still pending; wait for the stream's close so the file exists before abort() removes it.
      if (!out.closed) await new Promise<void>((resolve) => out.once("close", () => resolve()));
      throw err;
    }
    return (await fs.stat(temp)).size;
  }

  async commit(): Promise<ThreadFileInfo[]> {
    if (this.#closed) throw new Error("upload batch already finished");
    try {
      // Check every target before renaming anything, so a refusal leaves no file replaced.
      for (const { filename } of this.#staged) {
        const existing = await fs
          .lstat(path.join(this.#dir, filename))
          .catch((err: unknown) => (isMissing(err) ? undefined : Promise.reject(err)));
        if (existing?.isDirectory())
          throw new GatewayError(
            "BAD_REQUEST",
            `Cannot replace a directory with an uploaded file: ${JSON.stringify(filename)}`,
          );
      }
      const stored: ThreadFileInfo[] = [];
      for (const s of this.#staged) {
        const target = path.join(this.#dir, s.filename);
        await fs.rename(s.temp, target);
        const st = await fs.lstat(target);
        stored.push({
          filename: s.filename,
          size: st.size,
          path: virtualPathOf("uploads", s.filename),
          modified: st.mtimeMs / 1000,
        });
      }
      return stored;
    } finally {
      await this.abort();
    }
  }

  async abort(): Promise<void> {
    this.#closed = true;
    const staged = this.#staged;
    this.#staged = [];
    await Promise.all(staged.map((s) => fs.rm(s.temp, { force: true }).catch(() => undefined)));
  }
}
