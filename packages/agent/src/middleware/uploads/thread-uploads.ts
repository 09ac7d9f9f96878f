/**
 * The files of a run's uploads folder, as the thread's sandbox sees them: what
 * `UploadsMiddleware` checks announced files against (DeerFlow checks the host
 * folder; asking the sandbox works for remote sandboxes too), and a glance at
 * the content of the files it announces (an outline or a preview, see
 * `uploads-outline.ts`), read through the same sandbox.
 */
import type { Sandbox } from "@deerflow/sandbox";
import type { Logger } from "../../logger.js";
import type { RunConfigLike } from "../../run/run-options.js";
import type { ThreadSandboxes } from "../../sandbox/thread-sandboxes.js";
import {
  markdownOutline,
  OUTLINE_SCAN_LINES,
  PREVIEW_LINES,
  previewLines,
  type UploadGlance,
} from "./uploads-outline.js";
import { UPLOADS_VIRTUAL_DIR, type AnnouncedUpload } from "./uploads-text.js";

const MARKDOWN = /\.(md|markdown|mdx)$/i;

/** The names in a thread's uploads folder, and the sandbox to read them through. */
export class ThreadUploadsListing extends Set<string> {
  readonly #sandbox: Sandbox;
  readonly #logger: Logger;

  /**
   * @param names - base names of the regular files in the uploads folder
   * @param sandbox - the thread's sandbox
   * @param logger - receives read failures
   */
  constructor(names: Iterable<string>, sandbox: Sandbox, logger: Logger) {
    super(names);
    this.#sandbox = sandbox;
    this.#logger = logger;
  }

  /**
   * Adds a glance to each file: the outline of a Markdown file or of a
   * document's Markdown companion (`L<line>: <heading>`), else a preview of
   * its first lines; binary and unreadable files get none. Reads at most
   * {@link OUTLINE_SCAN_LINES} lines per file, in parallel, and never throws. (A file
   * whose first lines are enormous is read up to the sandbox's own text cap, 100 MiB,
   * as the `read_file` tool would; the sandbox API has no byte-ranged read.)
   *
   * @param files - the files listed in the block (already capped)
   * @returns the same files, with `glance` where there is one
   */
  async describe(files: readonly AnnouncedUpload[]): Promise<AnnouncedUpload[]> {
    return Promise.all(files.map(async (file) => ({ ...file, ...(await this.#glance(file)) })));
  }

  async #glance(file: AnnouncedUpload): Promise<{ glance?: UploadGlance }> {
    const own = `${UPLOADS_VIRTUAL_DIR}/${file.filename}`;
    const document = file.markdownVirtualPath ?? (MARKDOWN.test(file.filename) ? own : undefined);
    try {
      if (document !== undefined) {
        const text = await this.#sandbox.readFile(document, { startLine: 1, endLine: OUTLINE_SCAN_LINES });
        const { headings, more } = markdownOutline(text);
        if (headings.length > 0) return { glance: { kind: "outline", path: document, headings, more } };
        if (document !== own) return {};
        return { glance: { kind: "preview", lines: previewLines(text) } };
      }
      const text = await this.#sandbox.readFile(own, { startLine: 1, endLine: PREVIEW_LINES });
      const lines = previewLines(text);
      return lines.length === 0 ? {} : { glance: { kind: "preview", lines } };
    } catch (err) {
      // Binary files (the sandbox refuses them as text), files gone since the listing...
      this.#logger.debug({ file: file.filename, err }, "no outline or preview for an upload");
      return {};
    }
  }
}

/**
 * @param sessions - the agent's thread sandboxes
 * @param config - the run's config (its thread)
 * @param logger - receives a listing failure
 * @returns the regular files in `/mnt/user-data/uploads` by base name (empty when it cannot be listed)
 */
export async function listThreadUploads(
  sessions: ThreadSandboxes,
  config: RunConfigLike,
  logger: Logger,
): Promise<ReadonlySet<string>> {
  try {
    const sandbox = await sessions.sandboxFor(config);
    const entries = await sandbox.listDir(UPLOADS_VIRTUAL_DIR, { maxDepth: 1 });
    const prefix = `${UPLOADS_VIRTUAL_DIR}/`;
    const names = entries.filter((e) => e.startsWith(prefix) && !e.endsWith("/")).map((e) => e.slice(prefix.length));
    return new ThreadUploadsListing(names, sandbox, logger);
  } catch (err) {
    logger.warn({ err }, "could not list the thread's uploads; announcing none");
    return new Set();
  }
}

/**
 * The files to list, with a glance at their content when the listing can read them
 * (a {@link ThreadUploadsListing}); other listings (or none) leave them as they are.
 *
 * @param files - the files listed in the block
 * @param listing - what `listUploads` returned
 * @returns the files, described where possible
 */
export async function describeUploads(
  files: readonly AnnouncedUpload[],
  listing: ReadonlySet<string> | undefined,
): Promise<readonly AnnouncedUpload[]> {
  return listing instanceof ThreadUploadsListing ? listing.describe(files) : files;
}
