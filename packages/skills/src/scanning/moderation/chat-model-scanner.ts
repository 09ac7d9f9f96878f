/**
 * Content moderation backed by any LangChain chat model, with DeerFlow's
 * failure policy: the scan never throws for a model problem, it returns a
 * conservative verdict instead.
 */
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { silentLogger, type Logger } from "../../logger.js";
import type { ModerationInput, ModerationResult, ModerationScanner } from "../types.js";
import { parseModerationReply } from "./parse.js";
import { buildModerationPrompt, MODERATION_RUBRIC } from "./prompt.js";

/** Verdict texts of the failure policy (DeerFlow's exact wording). */
export const MODERATION_FAILURE_REASONS = {
  unparseable: "Security scan produced unparseable output; manual review required.",
  unavailableExecutable: "Security scan unavailable for executable content; manual review required.",
  unavailableClosed: "Security scan unavailable for skill content; manual review required.",
  unavailableOpen: "Security scan unavailable for non-executable skill content; manual review recommended.",
} as const;

/** Options of {@link ChatModelModerationScanner}. */
export interface ChatModelModerationScannerOptions {
  /** The moderation model. Disable thinking/reasoning on it: the reply must be bare JSON. */
  readonly model: BaseChatModel;
  /**
   * When the model call fails for non-executable content: `true` (default)
   * blocks, `false` warns. Executable content always blocks.
   */
  readonly failClosed?: boolean;
  readonly logger?: Logger;
  /** Identifier in logs and history; default `chat-model`. */
  readonly id?: string;
}

function replyText(reply: unknown): string {
  const message = reply as { content?: unknown; text?: unknown } | null;
  if (typeof message?.content === "string") return message.content;
  return typeof message?.text === "string" ? message.text : "";
}

/**
 * A {@link ModerationScanner} that asks a chat model to classify skill content
 * as allow / warn / block.
 *
 * Failure policy: a reply that cannot be parsed blocks
 * ({@link MODERATION_FAILURE_REASONS}.unparseable); a failed model call blocks
 * executable content, blocks other content when `failClosed` (the default), and
 * otherwise warns. An aborted `signal` is not a model failure: the abort
 * reason is rethrown.
 *
 * @example Plugging in a model
 * ```ts
 * import { ChatOpenAI } from "@langchain/openai";
 * const moderation = new ChatModelModerationScanner({
 *   model: new ChatOpenAI({ model: "gpt-4.1-mini", temperature: 0 }),
 * });
 * await installSkillArchive(file, { customRoot, moderation });
 * ```
 *
 * @example Writing your own scanner plugin
 * ```ts
 * // my-scanners/src/index.ts — selected in config with `use: "my-scanners:KeywordModeration"`
 * import type { ModerationScanner, ModerationInput, ModerationResult } from "@deerflow/skills";
 * export class KeywordModeration implements ModerationScanner {
 *   readonly id = "keyword";
 *   async moderate(input: ModerationInput): Promise<ModerationResult> {
 *     if (/ignore previous instructions/i.test(input.content)) return { decision: "block", reason: "Prompt override." };
 *     return { decision: "allow", reason: "No banned phrase." };
 *   }
 * }
 * // Verify it with the kit from "@deerflow/skills/testing":
 * // moderationScannerConformance({ name: "KeywordModeration", makeScanner: () => new KeywordModeration(), describe, it, expect });
 * ```
 */
export class ChatModelModerationScanner implements ModerationScanner {
  readonly id: string;
  private readonly model: BaseChatModel;
  private readonly failClosed: boolean;
  private readonly logger: Logger;

  /** @param options - the model and the failure policy. */
  constructor(options: ChatModelModerationScannerOptions) {
    this.model = options.model;
    this.failClosed = options.failClosed ?? true;
    this.logger = options.logger ?? silentLogger;
    this.id = options.id ?? "chat-model";
  }

  /**
   * Moderates one file.
   *
   * @param input - content, location, executable flag, static findings, signal.
   * @returns the verdict; never rejects because of the model.
   * @throws the signal's abort reason when `input.signal` is aborted.
   */
  async moderate(input: ModerationInput): Promise<ModerationResult> {
    const { signal } = input;
    signal?.throwIfAborted();
    let reply: unknown;
    try {
      reply = await this.model.invoke(
        [
          { role: "system", content: MODERATION_RUBRIC },
          { role: "user", content: buildModerationPrompt(input) },
        ],
        { runName: "security_agent", ...(signal ? { signal } : {}) },
      );
    } catch (err) {
      if (signal?.aborted) throw signal.reason;
      this.logger.warn(
        { location: input.location, err: err instanceof Error ? err.message : String(err) },
        "Skill moderation model call failed; using the conservative fallback",
      );
      if (input.executable) return { decision: "block", reason: MODERATION_FAILURE_REASONS.unavailableExecutable };
      return this.failClosed
        ? { decision: "block", reason: MODERATION_FAILURE_REASONS.unavailableClosed }
        : { decision: "warn", reason: MODERATION_FAILURE_REASONS.unavailableOpen };
    }
    // A reply that raced an abort is not acted on.
    signal?.throwIfAborted();
    const raw = replyText(reply);
    const parsed = parseModerationReply(raw);
    if (parsed !== null) return parsed;
    this.logger.warn(
      { location: input.location, output: raw.slice(0, 200) },
      "Skill moderation produced unparseable output",
    );
    return { decision: "block", reason: MODERATION_FAILURE_REASONS.unparseable };
  }
}
