/**
 * A reasoning model's thinking, shown folded above its answer: the
 * `additional_kwargs.reasoning_content` OpenAI-compatible providers stream
 * (DeepSeek, vLLM...), or the `thinking` / `reasoning` content blocks of
 * Anthropic and LangChain's standard blocks.
 */
import type { Message } from "@langchain/langgraph-sdk";

/** The reasoning text of an AI message ("" when it has none). */
function reasoningOf(message: Message): string {
  const kwargs = (message as { additional_kwargs?: Record<string, unknown> }).additional_kwargs;
  const fromKwargs = kwargs?.["reasoning_content"];
  if (typeof fromKwargs === "string" && fromKwargs !== "") return fromKwargs;
  if (!Array.isArray(message.content)) return "";
  return (message.content as unknown[])
    .map((block) => {
      const b = block as { type?: string; thinking?: unknown; reasoning?: unknown };
      if (b.type === "thinking" && typeof b.thinking === "string") return b.thinking;
      if (b.type === "reasoning" && typeof b.reasoning === "string") return b.reasoning;
      return "";
    })
    .join("");
}

/** The folded "Reasoning" section; nothing without reasoning. */
export function ReasoningView({ message }: { message: Message }) {
  const text = reasoningOf(message);
  if (text === "") return null;
  return (
    <details className="reasoning" data-testid="reasoning">
      <summary>Reasoning</summary>
      <div className="reasoning-text">{text}</div>
    </details>
  );
}
