/**
 * ViewImage — DeerFlow's row 23 (§5.3): when the run's model has
 * `supports_vision`, the agent has the `view_image` tool, and once every
 * `view_image` call of the last AI message has its result, the next model call
 * gets a hidden HumanMessage (id `view-image-context:<ai message id>`) with
 * `"Here are the images you've viewed:"` and, per image, `- **<path>** (<mime>)`
 * and an `image_url` block with a `data:<mime>;base64,...` URL. Files are
 * re-read for each call; one that is gone or no longer a valid image shows
 * `(file unavailable or changed on disk: <reason>)` instead. Runs on other
 * models are not offered `view_image`.
 *
 * Config keys: `models[].supports_vision` (false) of the run's model.
 *
 * Deliberate difference: DeerFlow writes the context message into the state
 * (removing earlier ones); here it is added to the model request only, so it
 * never piles up in the thread and needs no removal.
 */
import type { Sandbox } from "@deerflow/sandbox";
import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import type { ToolRunnableConfig } from "@langchain/core/tools";
import { createMiddleware, type AgentMiddleware } from "langchain";
import type { RunConfigLike } from "../../run/run-options.js";
import { messageText } from "../../internal/message-text.js";
import { VIEW_IMAGE_SUCCESS, VIEW_IMAGE_TOOL_NAME, createViewImageTool, readCheckedImage } from "./view-image-tool.js";

/** Id prefix of the hidden context message. */
export const VIEW_IMAGE_CONTEXT_ID_PREFIX = "view-image-context:";
/** DeerFlow's heading of the context message. */
export const VIEWED_IMAGES_HEADING = "Here are the images you've viewed:";

/** Options of {@link createViewImageMiddleware}. */
export interface ViewImageMiddlewareOptions {
  /** The sandbox of a run (tool calls and model calls). */
  readonly getSandbox: (config: RunConfigLike | ToolRunnableConfig | undefined) => Promise<Sandbox>;
  /** Whether the run's model sees images (`supports_vision` of the run's model). */
  readonly supportsVision: (run: RunConfigLike) => boolean;
}

/** The successful `view_image` paths of the last AI message, once all its view_image calls have results. */
function viewedPaths(
  messages: readonly BaseMessage[],
): { readonly aiId: string; readonly paths: string[] } | undefined {
  const at = messages.findLastIndex((m) => AIMessage.isInstance(m));
  const ai = messages[at] as AIMessage | undefined;
  const calls = (ai?.tool_calls ?? []).filter((c) => c.name === VIEW_IMAGE_TOOL_NAME);
  if (ai === undefined || calls.length === 0) return undefined;
  const results = new Map(
    messages
      .slice(at + 1)
      .filter((m): m is ToolMessage => ToolMessage.isInstance(m))
      .map((m) => [m.tool_call_id, m]),
  );
  if (calls.some((c) => c.id === undefined || !results.has(c.id))) return undefined;
  const paths = calls
    .filter((c) => messageText(results.get(c.id as string)?.content) === VIEW_IMAGE_SUCCESS)
    .map((c) => String(c.args["image_path"] ?? ""));
  return paths.length === 0 ? undefined : { aiId: ai.id ?? String(at), paths };
}

async function contextMessage(sandbox: Sandbox, aiId: string, paths: readonly string[]): Promise<HumanMessage> {
  const content: ({ type: "text"; text: string } | { type: "image_url"; image_url: { url: string } })[] = [
    { type: "text", text: VIEWED_IMAGES_HEADING },
  ];
  for (const p of paths) {
    const image = await readCheckedImage(sandbox, p);
    if (image.ok) {
      content.push({ type: "text", text: `- **${image.path}** (${image.mime})` });
      content.push({
        type: "image_url",
        image_url: { url: `data:${image.mime};base64,${Buffer.from(image.bytes).toString("base64")}` },
      });
    } else {
      content.push({
        type: "text",
        text: `- **${p}** (file unavailable or changed on disk: ${image.error.replace(/^Error: /, "")})`,
      });
    }
  }
  return new HumanMessage({ id: `${VIEW_IMAGE_CONTEXT_ID_PREFIX}${aiId}`, content });
}

/**
 * Creates the ViewImage middleware (contributes the `view_image` tool).
 *
 * @param options - the run's sandbox and whether its model sees images
 * @returns the middleware
 */
export function createViewImageMiddleware(options: ViewImageMiddlewareOptions): AgentMiddleware {
  return createMiddleware({
    name: "ViewImageMiddleware",
    tools: [createViewImageTool((config) => options.getSandbox(config))],
    wrapModelCall: async (request, handler) => {
      const run = request.runtime as RunConfigLike;
      if (!options.supportsVision(run)) {
        const tools = request.tools.filter((t) => (t as { name?: string }).name !== VIEW_IMAGE_TOOL_NAME);
        return handler(tools.length === request.tools.length ? request : { ...request, tools });
      }
      const viewed = viewedPaths(request.messages);
      if (viewed === undefined) return handler(request);
      const message = await contextMessage(await options.getSandbox(run), viewed.aiId, viewed.paths);
      return handler({ ...request, messages: [...request.messages, message] });
    },
  });
}
