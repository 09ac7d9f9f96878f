/**
 * Remote tool-result sanitisation — DeerFlow's `ToolResultSanitizationMiddleware`
 * (§3 row 3, always on): results of the tools that bring remote content in
 * (`web_fetch`, `web_search`, `image_search`, `web_capture`, and MCP tools) get
 * the same tag neutralisation as user input before the model (and the
 * tool-output budget, an outer wrapper) sees them. Local tool output (bash,
 * files) is left alone so code and logs are never mangled.
 *
 * Config keys: none (always on, as DeerFlow). Options of the module: `toolNames`,
 * `isRemoteTool` (how MCP tools are recognised: by default a tool whose
 * `metadata.deerflow_mcp` is set, DeerFlow's tag).
 */
import { ToolMessage } from "@langchain/core/messages";
import { isCommand, type Command } from "@langchain/langgraph";
import { createMiddleware, type AgentMiddleware } from "langchain";
import { copyToolMessage } from "../../internal/copy-tool-message.js";
import { mapContentText, neutralizeUntrustedTags } from "./neutralize.js";

/** DeerFlow's remote-content tools. */
export const REMOTE_CONTENT_TOOL_NAMES: readonly string[] = ["web_fetch", "web_search", "image_search", "web_capture"];

/** Options of {@link createToolResultSanitizationMiddleware}. */
export interface ToolResultSanitizationOptions {
  /** Tools whose results are untrusted remote content. Default {@link REMOTE_CONTENT_TOOL_NAMES}. */
  readonly toolNames?: readonly string[];
  /** Recognises other remote tools (e.g. MCP). Default: `tool.metadata.deerflow_mcp` is truthy. */
  readonly isRemoteTool?: (tool: unknown) => boolean;
}

const isMcpTool = (tool: unknown): boolean =>
  Boolean((tool as { metadata?: Record<string, unknown> } | undefined)?.metadata?.["deerflow_mcp"]);

function sanitizeMessage(message: ToolMessage): ToolMessage {
  const content = mapContentText(message.content as ToolMessage["content"], neutralizeUntrustedTags);
  if (content === message.content) return message;
  return copyToolMessage(message, { content });
}

function sanitizeResult(result: ToolMessage | Command): ToolMessage | Command {
  if (ToolMessage.isInstance(result)) return sanitizeMessage(result);
  if (!isCommand(result)) return result;
  const update = result.update as { messages?: unknown } | undefined;
  if (update === undefined || !Array.isArray(update.messages)) return result;
  const messages = update.messages.map((m: unknown) => (ToolMessage.isInstance(m) ? sanitizeMessage(m) : m));
  if (messages.every((m, i) => m === (update.messages as unknown[])[i])) return result;
  // The Command was made for this one call: rewriting its update in place is not visible elsewhere.
  Object.assign(update, { messages });
  return result;
}

/**
 * Creates the remote tool-result sanitisation middleware.
 *
 * @param options - which tools are remote
 * @returns a `wrapToolCall` middleware
 */
export function createToolResultSanitizationMiddleware(options: ToolResultSanitizationOptions = {}): AgentMiddleware {
  const names = new Set(options.toolNames ?? REMOTE_CONTENT_TOOL_NAMES);
  const isRemote = options.isRemoteTool ?? isMcpTool;
  return createMiddleware({
    name: "ToolResultSanitizationMiddleware",
    wrapToolCall: async (request, handler) => {
      const result = await handler(request);
      return names.has(request.toolCall.name) || isRemote(request.tool) ? sanitizeResult(result) : result;
    },
  });
}
