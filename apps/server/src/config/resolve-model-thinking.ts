/**
 * The thinking and reasoning keys of one `models:` entry (DeerFlow's
 * `ModelConfig`, §5.1): `supports_reasoning_effort`, `when_thinking_enabled`,
 * `when_thinking_disabled`, `thinking` (a shortcut merged into
 * `when_thinking_enabled.thinking`), `reasoning_effort` and `context_window`.
 * The schema has checked their types.
 */
import type { ModelConfig } from "./types.js";

type Doc = Record<string, unknown>;
type ThinkingSettings = Pick<
  ModelConfig,
  "supportsReasoningEffort" | "whenThinkingEnabled" | "whenThinkingDisabled" | "reasoningEffort" | "contextWindow"
>;

/**
 * @param m - the entry as written (snake_case)
 * @returns the camelCase fields present in it
 */
export function thinkingSettings(m: Doc): ThinkingSettings {
  const enabled = m["when_thinking_enabled"] as Doc | undefined;
  const thinking = m["thinking"] as Doc | undefined;
  // DeerFlow: `thinking` is merged over `when_thinking_enabled.thinking`.
  const whenEnabled =
    thinking === undefined
      ? enabled
      : { ...enabled, thinking: { ...(enabled?.["thinking"] as Doc | undefined), ...thinking } };
  const out: { -readonly [K in keyof ThinkingSettings]: ThinkingSettings[K] } = {};
  if (m["supports_reasoning_effort"] !== undefined)
    out.supportsReasoningEffort = m["supports_reasoning_effort"] as boolean;
  if (whenEnabled !== undefined) out.whenThinkingEnabled = whenEnabled;
  if (m["when_thinking_disabled"] !== undefined) out.whenThinkingDisabled = m["when_thinking_disabled"] as Doc;
  if (m["reasoning_effort"] !== undefined) out.reasoningEffort = m["reasoning_effort"] as string;
  if (m["context_window"] !== undefined) out.contextWindow = m["context_window"] as number;
  return out;
}
