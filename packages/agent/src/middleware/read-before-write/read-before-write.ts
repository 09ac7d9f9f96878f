/**
 * Read-before-write — DeerFlow's `ReadBeforeWriteMiddleware` (§3 row 11): a
 * version gate on file edits. `read_file` stamps its result with the hash of
 * the WHOLE file (a ranged read too); `write_file` over an existing file (an
 * append included) and `str_replace` are blocked with DeerFlow's text unless
 * the latest read of that file hashes to what is on disk now. A successful
 * write stamps a write mark that voids every earlier read, so consecutive
 * edits each need a fresh read. A new file can always be written.
 *
 * The marks ride on the tool results in `messages` (see `read-marks.ts`), so
 * they are the thread's state and survive across its runs and processes.
 * Gate check and tool run are serialised per (thread, path): the tool calls of
 * one response run concurrently, and two writes must not pass on one read.
 * Fail-open like DeerFlow: when the gate cannot inspect the file (sandbox
 * hiccup), the tool runs and reports its own error.
 *
 * Config keys: `read_before_write.enabled` (default `true`).
 *
 * Deliberate difference: DeerFlow relies on a write changing the file's hash;
 * an explicit write mark also voids the read when a write leaves the bytes
 * unchanged, which is what its text promises ("Any write invalidates earlier reads").
 */
import { SandboxError, type Sandbox } from "@deerflow/sandbox";
import { KeyedLock } from "@deerflow/kernel";
import { ToolMessage } from "@langchain/core/messages";
import type { Command } from "@langchain/langgraph";
import { createMiddleware, type AgentMiddleware } from "langchain";
import { silentLogger, type Logger } from "../../logger.js";
import { readRunOptions, type RunConfigLike } from "../../run/run-options.js";
import { contentHash, latestReadHash, markPath, withMark } from "./read-marks.js";
import { READ_MARK_KEY, WRITE_MARK_KEY, readBeforeWriteBlockedText } from "./texts.js";

/** Options of {@link createReadBeforeWriteMiddleware}. */
export interface ReadBeforeWriteOptions {
  /** The sandbox of the tool call's run (e.g. `(scope) => sessions.sandboxFor(scope)`). */
  readonly getSandbox: (scope: RunConfigLike) => Promise<Sandbox>;
  /** Tools that stamp a read mark. Default `["read_file"]`. */
  readonly readTools?: readonly string[];
  /** Tools gated on a current read. Default `["write_file", "str_replace"]`. */
  readonly writeTools?: readonly string[];
  readonly logger?: Logger;
}

/** `read_file` answers that carry no file content (a bad range): no mark. `(empty)` is a real read. */
const NO_CONTENT_RESULTS = new Set([
  "(start_line must be >= 1)",
  "(end_line must be >= 1)",
  "(start_line > end_line — no lines in range)",
  "(start_line exceeds file length)",
]);

const textOf = (message: ToolMessage): string => (typeof message.content === "string" ? message.content : "");
const succeeded = (message: ToolMessage): boolean =>
  message.status !== "error" && !textOf(message).startsWith("Error:");

function requestedPath(args: unknown): string | undefined {
  const path = (args as { path?: unknown } | null)?.path;
  return typeof path === "string" && path !== "" ? path : undefined;
}

/**
 * Creates the read-before-write middleware.
 *
 * @param options - where the run's sandbox comes from, the gated tools, logger
 * @returns a `wrapToolCall` middleware
 * @example
 * ```ts
 * createReadBeforeWriteMiddleware({ getSandbox: (scope) => sessions.sandboxFor(scope) });
 * ```
 */
export function createReadBeforeWriteMiddleware(options: ReadBeforeWriteOptions): AgentMiddleware {
  const logger = options.logger ?? silentLogger;
  const readTools = new Set(options.readTools ?? ["read_file"]);
  const writeTools = new Set(options.writeTools ?? ["write_file", "str_replace"]);
  const lock = new KeyedLock();

  /** The file's text; `null` when it does not exist; `undefined` when it cannot be inspected. */
  const currentContent = async (scope: RunConfigLike, path: string): Promise<string | null | undefined> => {
    try {
      return await (await options.getSandbox(scope)).readFile(path);
    } catch (err) {
      if (SandboxError.isInstance(err) && err.code === "NOT_FOUND") return null;
      logger.warn({ err, path }, "read-before-write could not inspect the file; the call goes ahead (fail-open)");
      return undefined;
    }
  };

  return createMiddleware({
    name: "ReadBeforeWriteMiddleware",
    wrapToolCall: async (request, handler) => {
      const { name, args, id } = request.toolCall;
      const gated = writeTools.has(name);
      const path = requestedPath(args);
      if (path === undefined || (!gated && !readTools.has(name))) return handler(request);
      const key = markPath(path);
      const scope = request.runtime as RunConfigLike;
      return lock.run(
        `${readRunOptions(scope).threadId ?? ""}\u0000${key}`,
        async (): Promise<ToolMessage | Command> => {
          if (gated) {
            const current = await currentContent(scope, path);
            if (typeof current === "string" && latestReadHash(request.state.messages, key) !== contentHash(current)) {
              return new ToolMessage({
                content: readBeforeWriteBlockedText(name, path),
                tool_call_id: id ?? "",
                name,
                status: "error",
              });
            }
            const result = await handler(request);
            return ToolMessage.isInstance(result) && succeeded(result)
              ? withMark(result, WRITE_MARK_KEY, { path: key })
              : result;
          }
          const result = await handler(request);
          if (!ToolMessage.isInstance(result) || !succeeded(result) || NO_CONTENT_RESULTS.has(textOf(result).trim()))
            return result;
          const whole = await currentContent(scope, path);
          return typeof whole === "string"
            ? withMark(result, READ_MARK_KEY, { path: key, hash: contentHash(whole) })
            : result;
        },
      );
    },
  });
}
