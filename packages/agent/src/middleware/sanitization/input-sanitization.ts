/**
 * Input sanitisation — DeerFlow's `InputSanitizationMiddleware` (§3 row 1, always
 * on, the outermost model-call wrapper): framework and injection tags the user
 * typed (a `<system-reminder>`, our `<current_uploads>`...) in the latest
 * message the user wrote are escaped so the model reads them as text. Only the
 * request changes; the state keeps what the user sent. Text a middleware put
 * into the user's message (the uploads block) is left alone when the message
 * records the user's own text under `additional_kwargs.original_user_content`.
 *
 * Config keys: none (always on, as DeerFlow). `frameUserInput` is an option of
 * the module only.
 *
 * Deliberate difference: DeerFlow's current code also wraps the user's text in
 * `--- BEGIN USER INPUT ---` / `--- END USER INPUT ---` markers; the
 * capabilities notes' row 1 does not, and framing every message changes every
 * prompt, so it is opt-in here (`frameUserInput: true`). The markers are
 * defused in untrusted text either way.
 */
import { HumanMessage } from "@langchain/core/messages";
import { createMiddleware, type AgentMiddleware } from "langchain";
import { lastGenuineUserIndex, ORIGINAL_USER_CONTENT_KEY } from "../../internal/genuine-user-message.js";
import { silentLogger, type Logger } from "../../logger.js";
import { frameUntrustedText, mapContentText, neutralizeUntrustedTags } from "./neutralize.js";

/** Options of {@link createInputSanitizationMiddleware}. */
export interface InputSanitizationOptions {
  /** Also wrap the user's text in the boundary markers (DeerFlow's current behaviour). Default `false`. */
  readonly frameUserInput?: boolean;
  readonly logger?: Logger;
}

/**
 * Sanitises the user's part of a message. When a middleware prepended trusted
 * text (`original_user_content` holds what the user typed), only that suffix —
 * or, for blocks, every block after the first (the prepended one) — is
 * rewritten, so a server-written `<current_uploads>` block stays intact.
 */
function sanitizeUserPart(
  content: HumanMessage["content"],
  original: unknown,
  transform: (text: string) => string,
): HumanMessage["content"] {
  if (typeof original !== "string") return mapContentText(content, transform);
  if (original === "") return content;
  if (typeof content === "string") {
    const at = content.lastIndexOf(original);
    if (at < 0) return mapContentText(content, transform);
    const next = content.slice(0, at) + transform(original);
    return next === content ? content : next;
  }
  const [first, ...rest] = content;
  if (first === undefined) return content;
  const tail = mapContentText(rest, transform);
  return tail === rest ? content : [first, ...tail];
}

/**
 * Creates the input-sanitisation middleware.
 *
 * @param options - framing and logger
 * @returns a `wrapModelCall` middleware
 * @example
 * ```ts
 * createAgent({ model, middleware: [createInputSanitizationMiddleware()] });
 * ```
 */
export function createInputSanitizationMiddleware(options: InputSanitizationOptions = {}): AgentMiddleware {
  const logger = options.logger ?? silentLogger;
  const transform = options.frameUserInput === true ? frameUntrustedText : neutralizeUntrustedTags;
  return createMiddleware({
    name: "InputSanitizationMiddleware",
    wrapModelCall: async (request, handler) => {
      const at = lastGenuineUserIndex(request.messages);
      const message = request.messages[at];
      if (message === undefined) return handler(request);
      let content: HumanMessage["content"];
      try {
        content = sanitizeUserPart(
          message.content as HumanMessage["content"],
          message.additional_kwargs[ORIGINAL_USER_CONTENT_KEY],
          transform,
        );
      } catch (err) {
        // Fail open: a sanitiser bug must not take the model call down with it.
        logger.warn({ err }, "input sanitisation failed; the request is sent unchanged");
        return handler(request);
      }
      if (content === message.content) return handler(request);
      const sanitized = new HumanMessage({
        content,
        additional_kwargs: { ...message.additional_kwargs },
        response_metadata: { ...message.response_metadata },
        ...(message.id === undefined ? {} : { id: message.id }),
        ...(message.name === undefined ? {} : { name: message.name }),
      });
      const messages = [...request.messages];
      messages[at] = sanitized;
      return handler({ ...request, messages });
    },
  });
}
