/**
 * Title texts and rules of DeerFlow's `TitleMiddleware` (§3.2): the default
 * prompt, the local fallback, and how a model's answer becomes a title.
 */

/** DeerFlow's default `title.prompt_template` (`{max_words}`, `{user_msg}`, `{assistant_msg}`). */
export const DEFAULT_TITLE_PROMPT_TEMPLATE =
  "Generate a concise title (max {max_words} words) for this conversation.\nUser: {user_msg}\nAssistant: {assistant_msg}\n\nReturn ONLY the title, no quotes, no explanation.";

/** Title of a conversation whose first message has no text. */
export const NEW_CONVERSATION_TITLE = "New Conversation";

/** Characters of each message given to the title prompt. */
const TITLE_PROMPT_MESSAGE_CHARS = 500;

/** Removes `<think>…</think>` blocks (reasoning some models put in their text). */
function stripThinkBlocks(text: string): string {
  return text.replace(/<think>[\s\S]*?(<\/think>|$)/gi, "");
}

/**
 * The local title: the user's message, cut to `min(50, maxChars - 3)` characters
 * plus `...` when longer than `min(maxChars, 50)`.
 *
 * @param userText - the first user message's text
 * @param maxChars - `title.max_chars`
 * @returns the title (`New Conversation` for an empty message)
 */
export function fallbackTitle(userText: string, maxChars: number): string {
  const text = userText.trim();
  if (text === "") return NEW_CONVERSATION_TITLE;
  if (text.length <= Math.min(maxChars, 50)) return text;
  return `${text.slice(0, Math.min(50, maxChars - 3)).trimEnd()}...`;
}

/**
 * A model's answer as a title: `<think>` blocks removed, surrounding quotes and
 * whitespace stripped, cut to `maxChars`.
 *
 * @param answer - the model's text
 * @param maxChars - `title.max_chars`
 * @returns the title ("" when nothing is left)
 */
export function parseTitle(answer: string, maxChars: number): string {
  const title = stripThinkBlocks(answer)
    .trim()
    .replace(/^["']+|["']+$/g, "")
    .trim();
  return title.slice(0, maxChars);
}

/**
 * Fills the prompt template (`{max_words}`, `{user_msg}`, `{assistant_msg}`; other braces are left alone).
 *
 * @param template - `title.prompt_template`
 * @param values - the values
 * @returns the prompt
 */
export function titlePrompt(
  template: string,
  values: { readonly maxWords: number; readonly userText: string; readonly assistantText: string },
): string {
  const fields: Record<string, string> = {
    max_words: String(values.maxWords),
    user_msg: values.userText.slice(0, TITLE_PROMPT_MESSAGE_CHARS),
    assistant_msg: stripThinkBlocks(values.assistantText).slice(0, TITLE_PROMPT_MESSAGE_CHARS),
  };
  return template.replace(/\{(max_words|user_msg|assistant_msg)\}/g, (_, key: string) => fields[key] ?? "");
}
