/**
 * The scaffolding shared by the seven tools: building a LangChain tool from a
 * JSON Schema, and obtaining the call's sandbox without ever throwing.
 */
import { tool, type ToolRunnableConfig } from "@langchain/core/tools";
import type { JSONSchema } from "@langchain/core/utils/json_schema";
import type { Sandbox } from "../sandbox.js";
import { sandboxInitErrorText } from "./error-text.js";
import type { ToolContext } from "./tool-options.js";

/** Raw tool arguments as the model sent them (validated against the tool's JSON Schema). */
export type ToolArgs = Record<string, unknown>;

/** A tool body: never rejects for expected failures, returns `Error: …` text instead. */
export type ToolBody = (args: ToolArgs, config: ToolRunnableConfig | undefined) => Promise<string>;

/**
 * Builds a LangChain structured tool with a JSON Schema input (no zod).
 *
 * @param name - The tool name the model calls.
 * @param description - What the model reads.
 * @param schema - The input schema.
 * @param body - The implementation.
 * @returns The tool.
 */
export function defineSandboxTool<NameT extends string>(
  name: NameT,
  description: string,
  schema: JSONSchema,
  body: ToolBody,
) {
  // Explicit type arguments select tool()'s JSON Schema overload.
  return tool<JSONSchema, NameT, ToolArgs, ToolArgs, string>(
    async (input: unknown, config?: ToolRunnableConfig) =>
      body((typeof input === "object" && input !== null ? input : {}) as ToolArgs, config),
    { name, description, schema },
  );
}

/** The LangChain tool type of every sandbox tool. */
export type SandboxTool<NameT extends string = string> = ReturnType<typeof defineSandboxTool<NameT>>;

/**
 * The call's sandbox, or the `Error: …` text to return when it cannot be had.
 *
 * @param ctx - The tool context.
 * @param config - The tool call's config.
 * @returns The sandbox, or an error text.
 */
export async function acquireSandbox(
  ctx: ToolContext,
  config: ToolRunnableConfig | undefined,
): Promise<Sandbox | string> {
  try {
    return await ctx.sandboxFor(config);
  } catch (err) {
    ctx.logger.warn(
      { err: err instanceof Error ? err.message : String(err) },
      "sandbox tools could not obtain a sandbox",
    );
    return sandboxInitErrorText(err);
  }
}
