/**
 * Uploads — DeerFlow's `UploadsMiddleware` (§3 row 5, §6.2): at the run's
 * first model call (DeerFlow: before the agent runs), the files the client attached to the last human message
 * (`additional_kwargs.files`, `[{ filename, size, path, status }]`) are
 * announced in a `<current_uploads>` block prepended to that message (the
 * message keeps its id, so the state's copy is replaced). Entries that are not
 * objects, names that are not a base name, staging files (`.upload-*`) and
 * files no longer in the thread's uploads folder are skipped; at most
 * `maxFiles` are listed, the rest summarised. Older uploads are not announced.
 *
 * Each listed file gets DeerFlow's optional outline (`L<line>: <heading>` of
 * a Markdown file or of a document's Markdown companion) or a preview of its
 * first lines, when `listUploads` returns a `ThreadUploadsListing` (the lead
 * chain's does; reads are bounded, see `uploads-outline.ts`).
 *
 * Deliberate difference from DeerFlow: a Markdown companion is named from the
 * entry's `markdown_virtual_path` (what our upload route returns) when it
 * exists in the uploads folder, rather than guessed from the file name.
 *
 * Config keys: none in `config.yaml`; options `maxFiles` (10), `listUploads`.
 */
import { HumanMessage, type BaseMessage } from "@langchain/core/messages";
import { Command } from "@langchain/langgraph";
import { createMiddleware, type AgentMiddleware } from "langchain";
import { AgentError } from "../../errors.js";
import { ORIGINAL_USER_CONTENT_KEY } from "../../internal/genuine-user-message.js";
import { messageText } from "../../internal/message-text.js";
import { silentLogger, type Logger } from "../../logger.js";
import type { RunConfigLike } from "../../run/run-options.js";
import {
  currentUploadsBlock,
  DEFAULT_MAX_ANNOUNCED_FILES,
  UPLOADS_VIRTUAL_DIR,
  type AnnouncedUpload,
} from "./uploads-text.js";
import { describeUploads } from "./thread-uploads.js";

/** Options of {@link createUploadsMiddleware}. */
export interface UploadsMiddlewareOptions {
  /**
   * Base names of the regular files in the run's uploads folder, or `undefined`
   * when it cannot be known (then the entries are not checked against disk).
   */
  readonly listUploads?: (config: RunConfigLike) => Promise<ReadonlySet<string> | undefined>;
  /** Files listed in the block (≥ 1). Default 10. */
  readonly maxFiles?: number;
  readonly logger?: Logger;
}

const isBaseName = (name: string): boolean =>
  name !== "" && name !== "." && name !== ".." && !name.includes("/") && !name.includes("\\");
const isStaging = (name: string): boolean => name.startsWith(".upload-");
/** How {@link currentUploadsBlock} starts. */
const UPLOADS_BLOCK_START = "<current_uploads>";

/**
 * The uploads announced for a message's `additional_kwargs.files`.
 *
 * @param files - the raw `additional_kwargs.files` value
 * @param present - names in the uploads folder (`undefined`: not checked)
 * @returns the valid entries, in order
 */
export function announcedUploads(files: unknown, present?: ReadonlySet<string>): AnnouncedUpload[] {
  if (!Array.isArray(files)) return [];
  const out: AnnouncedUpload[] = [];
  for (const entry of files) {
    if (typeof entry !== "object" || entry === null || Array.isArray(entry)) continue;
    const raw = entry as Record<string, unknown>;
    const filename = typeof raw["filename"] === "string" ? raw["filename"] : "";
    if (!isBaseName(filename) || isStaging(filename)) continue;
    if (present !== undefined && !present.has(filename)) continue;
    const size = Math.trunc(Number(raw["size"] ?? 0)) || 0;
    const markdown = raw["markdown_virtual_path"];
    const markdownName =
      typeof markdown === "string" && markdown.startsWith(`${UPLOADS_VIRTUAL_DIR}/`)
        ? markdown.slice(UPLOADS_VIRTUAL_DIR.length + 1)
        : undefined;
    const hasMarkdown =
      markdownName !== undefined && isBaseName(markdownName) && (present === undefined || present.has(markdownName));
    out.push({ filename, size, ...(hasMarkdown ? { markdownVirtualPath: markdown as string } : {}) });
  }
  return out;
}

/** Whether a stored message already carries the block this middleware prepends. */
function isAnnounced(message: HumanMessage): boolean {
  const original = message.additional_kwargs[ORIGINAL_USER_CONTENT_KEY];
  const text = messageText(message.content);
  return typeof original === "string" && text !== original && text.startsWith(UPLOADS_BLOCK_START);
}

/** The message with the block prepended (same id, so the state's copy is replaced). */
function withBlock(message: BaseMessage, block: string): HumanMessage {
  const content =
    typeof message.content === "string"
      ? `${block}\n\n${message.content}`
      : [{ type: "text" as const, text: `${block}\n\n` }, ...message.content];
  return new HumanMessage({
    content,
    // What the user typed, so input sanitisation leaves the prepended block alone.
    additional_kwargs:
      typeof message.additional_kwargs[ORIGINAL_USER_CONTENT_KEY] === "string"
        ? message.additional_kwargs
        : { ...message.additional_kwargs, [ORIGINAL_USER_CONTENT_KEY]: messageText(message.content) },
    response_metadata: message.response_metadata,
    ...(message.id !== undefined ? { id: message.id } : {}),
    ...(message.name !== undefined ? { name: message.name } : {}),
  });
}

/**
 * Creates the uploads middleware.
 *
 * Where its hook lives: in the model node (`wrapModelCall`), not in a
 * `beforeAgent` node every run passes through. The first model call of a run
 * finds the run's new human message last in the state; it announces the files
 * there (the model gets the block in this very call) and writes the message
 * back with the block through a `Command`, so the state holds what
 * `beforeAgent` would have written and later calls find it announced. In a
 * chain it sits inside input sanitisation, which escapes the user's own text
 * of that first request and leaves the block alone afterwards
 * (`additional_kwargs.original_user_content`).
 *
 * @param options - how to list the uploads folder, the cap, the logger
 * @returns a `wrapModelCall` middleware
 * @throws AgentError `CONFIG_INVALID` when `maxFiles` is not an integer ≥ 1
 */
export function createUploadsMiddleware(options: UploadsMiddlewareOptions = {}): AgentMiddleware {
  const maxFiles = options.maxFiles ?? DEFAULT_MAX_ANNOUNCED_FILES;
  if (!Number.isInteger(maxFiles) || maxFiles < 1)
    throw new AgentError("CONFIG_INVALID", `uploads maxFiles must be an integer ≥ 1, got ${maxFiles}`);
  const logger = options.logger ?? silentLogger;
  return createMiddleware({
    name: "UploadsMiddleware",
    wrapModelCall: async (request, handler) => {
      const stored = request.state.messages.at(-1);
      if (stored === undefined || !HumanMessage.isInstance(stored)) return handler(request);
      const raw = stored.additional_kwargs["files"];
      if (!Array.isArray(raw) || raw.length === 0 || isAnnounced(stored)) return handler(request);
      const present = await options.listUploads?.(request.runtime as RunConfigLike);
      const files = announcedUploads(raw, present);
      if (files.length === 0) {
        logger.info({ entries: raw.length }, "files metadata was present but no files were found on disk");
        return handler(request);
      }
      // A ThreadUploadsListing (the lead chain's) adds each listed file's outline or first lines.
      const listed = await describeUploads(files.slice(0, maxFiles), present);
      const block = currentUploadsBlock(listed, files.slice(maxFiles));
      // The request's copy may differ from the state's (an outer middleware sanitised it): announce in both.
      const isStored = (m: BaseMessage): boolean => m === stored || (stored.id !== undefined && m.id === stored.id);
      const messages = request.messages.map((m) => (isStored(m) ? withBlock(m, block) : m));
      await handler({ ...request, messages });
      return new Command({ update: { messages: [withBlock(stored, block)] } });
    },
  });
}
