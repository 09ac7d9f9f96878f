/**
 * Artifacts middleware — DeerFlow's built-in `present_files` tool and the
 * `artifacts` field of its `ThreadState` (no chain row of its own in DeerFlow,
 * which adds the tool in `get_available_tools`): registers `present_files`,
 * which fills the thread's `artifacts` channel (declared in `LeadAgentState`).
 *
 * Config keys: none.
 */
import type { Sandbox } from "@deerflow/sandbox";
import type { ToolRunnableConfig } from "@langchain/core/tools";
import { createMiddleware, type AgentMiddleware } from "langchain";
import { createPresentFilesTool } from "../tools/present-files.js";

/** Options of {@link createArtifactsMiddleware}. */
export interface ArtifactsMiddlewareOptions {
  /** The sandbox of the tool call's run (e.g. `(config) => sessions.sandboxFor(config ?? {})`). */
  readonly getSandbox: (config: ToolRunnableConfig | undefined) => Promise<Sandbox>;
}

/**
 * Creates the artifacts middleware.
 *
 * @param options - where the run's sandbox comes from
 * @returns a middleware contributing the `present_files` tool
 */
export function createArtifactsMiddleware(options: ArtifactsMiddlewareOptions): AgentMiddleware {
  return createMiddleware({
    name: "ArtifactsMiddleware",
    tools: [createPresentFilesTool(options.getSandbox)],
  });
}
