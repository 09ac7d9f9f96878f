/**
 * Artifacts middleware: registers the `present_files` tool, which fills the
 * thread's `artifacts` channel (declared in `LeadAgentState`).
 */
import type { Sandbox } from "@deerflow/sandbox";
import { createMiddleware, type AgentMiddleware } from "langchain";
import { createPresentFilesTool } from "../tools/present-files.js";

/**
 * Creates the artifacts middleware for one run.
 *
 * @param getSandbox - the run's sandbox
 * @returns a middleware contributing the `present_files` tool
 */
export function createArtifactsMiddleware(getSandbox: () => Promise<Sandbox>): AgentMiddleware {
  return createMiddleware({
    name: "ArtifactsMiddleware",
    tools: [createPresentFilesTool(getSandbox)],
  });
}
