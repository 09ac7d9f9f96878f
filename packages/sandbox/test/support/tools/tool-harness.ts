/**
 * Test-only helpers: the tool set over a {@link MemorySandbox}, addressed by name.
 */
import type { RunnableConfig } from "@langchain/core/runnables";
import { createSandboxTools } from "../../../src/tools/create-sandbox-tools.js";
import type { SandboxToolName } from "../../../src/tools/tool-schemas.js";
import type { SandboxToolsOptions } from "../../../src/tools/tool-options.js";
import { MemorySandbox, type MemorySandboxOptions } from "./memory-sandbox.js";

/** Calls one tool by name with raw arguments; returns its text. */
type CallTool = (name: SandboxToolName, args: Record<string, unknown>, config?: RunnableConfig) => Promise<string>;

/** A sandbox double plus the tools over it. */
export interface Harness {
  readonly sandbox: MemorySandbox;
  readonly call: CallTool;
}

/**
 * Builds the tools over a fresh {@link MemorySandbox}.
 *
 * @param sandboxOptions - Files, mounts, execute behaviour.
 * @param toolOptions - Tool options other than the sandbox.
 * @returns The sandbox and a caller.
 */
export function harness(
  sandboxOptions: MemorySandboxOptions = {},
  toolOptions: Omit<SandboxToolsOptions, "sandbox" | "getSandbox"> = {},
): Harness {
  const sandbox = new MemorySandbox(sandboxOptions);
  const tools = createSandboxTools({ sandbox, ...toolOptions });
  const call: CallTool = async (name, args, config) => {
    const found = tools.find((t) => t.name === name);
    if (found === undefined) throw new Error(`no tool ${name}`);
    const out: unknown = await found.invoke(args, config);
    if (typeof out !== "string") throw new Error(`tool ${name} returned ${typeof out}`);
    return out;
  };
  return { sandbox, call };
}
