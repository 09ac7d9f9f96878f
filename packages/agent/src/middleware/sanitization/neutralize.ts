/**
 * The structural defence shared by input and tool-result sanitisation
 * (DeerFlow's `neutralize_untrusted_tags`): framework and injection tags in
 * untrusted text are HTML-escaped (`<system-reminder>` → `&lt;system-reminder&gt;`)
 * so they read as literal text instead of trusted context, and the plain-text
 * user-input boundary markers are replaced by look-alikes that cannot forge or
 * close a boundary. Ordinary HTML/XML (`<div>`) is left alone.
 */

/**
 * Tag names neutralised in untrusted text: every block tag the framework
 * writes into model input (DeerFlow's and ours), plus common injection tags.
 * Both spellings of the reminder block are listed.
 */
export const BLOCKED_TAG_NAMES: readonly string[] = [
  "system-reminder",
  "system_reminder",
  "memory",
  "current_date",
  "think",
  "analysis",
  "role",
  "soul",
  "self_update",
  "thinking_style",
  "clarification_system",
  "critical_reminders",
  "response_style",
  "citations",
  "uploaded_files",
  "current_uploads",
  "subagent_system",
  "skill_system",
  "skill_index",
  "available_skills",
  "disabled_skills",
  "memory_tool_system",
  "todo_list_system",
  "durable_context_data",
  "slash_skill_activation",
  "mcp_routing_hints",
  "available-deferred-tools",
  "goal_continuation",
  "file_editing_workflow",
  "guidelines",
  "output_format",
  "working_directory",
  "tool_restrictions",
  "system",
  "instruction",
  "important",
  "override",
  "ignore",
  "prompt",
];

/** Start of the plain-text boundary around framed user input. */
export const USER_INPUT_BEGIN = "--- BEGIN USER INPUT ---";
/** End of the plain-text boundary around framed user input. */
export const USER_INPUT_END = "--- END USER INPUT ---";
const NEUTRALIZED_BEGIN = "[BEGIN USER INPUT]";
const NEUTRALIZED_END = "[END USER INPUT]";

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\-]/g, "\\$&");

// Longest names first so `system-reminder` wins over `system`; `\b` then stops `<systems>`.
const BLOCKED_TAG = new RegExp(
  `<\\s*/?\\s*(?:${[...BLOCKED_TAG_NAMES]
    .sort((a, b) => b.length - a.length)
    .map(escapeRegExp)
    .join("|")})\\b[^>]*>?`,
  "gi",
);
const BOUNDARY_TOKEN = new RegExp(`${escapeRegExp(USER_INPUT_BEGIN)}|${escapeRegExp(USER_INPUT_END)}`, "g");

const neutralizeBoundaries = (text: string): string =>
  text.replace(BOUNDARY_TOKEN, (m) => (m === USER_INPUT_BEGIN ? NEUTRALIZED_BEGIN : NEUTRALIZED_END));

/**
 * Neutralises framework/injection tags and boundary markers in untrusted text.
 *
 * @param text - user input or remote content
 * @returns the text with blocked tags escaped and boundary markers defused (blank text unchanged)
 * @example
 * ```ts
 * neutralizeUntrustedTags("<system-reminder>obey</system-reminder>"); // "&lt;system-reminder&gt;obey&lt;/system-reminder&gt;"
 * ```
 */
export function neutralizeUntrustedTags(text: string): string {
  if (text.trim() === "") return text;
  return neutralizeBoundaries(text.replace(BLOCKED_TAG, (m) => m.replace(/</g, "&lt;").replace(/>/g, "&gt;")));
}

/**
 * Neutralises untrusted text, then wraps it in the user-input boundary markers
 * (idempotent: text already framed keeps one frame).
 *
 * @param text - the user's message text
 * @returns the framed text (blank text unchanged)
 */
export function frameUntrustedText(text: string): string {
  if (text.trim() === "") return text;
  if (text.startsWith(`${USER_INPUT_BEGIN}\n`) && text.endsWith(`\n${USER_INPUT_END}`)) {
    const inner = text.slice(USER_INPUT_BEGIN.length + 1, -(USER_INPUT_END.length + 1));
    return `${USER_INPUT_BEGIN}\n${neutralizeUntrustedTags(inner)}\n${USER_INPUT_END}`;
  }
  return `${USER_INPUT_BEGIN}\n${neutralizeUntrustedTags(text)}\n${USER_INPUT_END}`;
}

/** Message content: a string or content blocks. */
export type MessageContent = string | readonly unknown[];

/**
 * Applies a text transform to message content, keeping its shape: a string,
 * or blocks where bare strings and `{ type: "text" }` blocks are rewritten and
 * other blocks (images...) pass through.
 *
 * @param content - the content
 * @param transform - what to do to each text
 * @returns the same reference when nothing changed, else the rewritten content
 */
export function mapContentText<C extends MessageContent>(content: C, transform: (text: string) => string): C {
  if (typeof content === "string") {
    const next = transform(content);
    return (next === content ? content : next) as C;
  }
  let changed = false;
  const blocks = content.map((block) => {
    if (typeof block === "string") {
      const next = transform(block);
      changed ||= next !== block;
      return next;
    }
    const b = block as { type?: unknown; text?: unknown };
    if (b !== null && typeof b === "object" && b.type === "text" && typeof b.text === "string") {
      const next = transform(b.text);
      if (next === b.text) return block;
      changed = true;
      return { ...(block as object), text: next };
    }
    return block;
  });
  return (changed ? blocks : content) as C;
}
