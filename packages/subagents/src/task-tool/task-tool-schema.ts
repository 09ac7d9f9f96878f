/**
 * The wire contract of the `task` tool: DeerFlow's parameter names and order
 * (`description`, `prompt`, `subagent_type`), plus an optional `max_turns`.
 */

/** The tool name (also the name the limit middleware counts). */
export const TASK_TOOL_NAME = "task";

/** Input of `task` exactly as the model sends it. */
export interface TaskToolInput {
  readonly description: string;
  readonly prompt: string;
  readonly subagent_type: string;
  readonly max_turns?: number | null;
}

/** Description shown to the lead model. */
export const TASK_TOOL_DESCRIPTION = [
  "Delegate a self-contained task to a subagent that works in its own context.",
  "",
  "The call waits until the subagent finishes and returns its final result, so no polling is needed.",
  "Give the subagent everything it needs in `prompt`: it does not see this conversation.",
  "",
  "Args:",
  "    description: A short (3-5 words) label for the task, shown to the user.",
  "    prompt: The complete task for the subagent, with all required context.",
  "    subagent_type: Which subagent runs the task.",
  "    max_turns: Optional cap on the subagent's steps (lower than its default).",
].join("\n");

/**
 * Builds the JSON Schema of the tool input.
 *
 * @param subagentNames - the registry's names (the `subagent_type` enum); an empty list leaves the enum out
 * @returns a JSON Schema object with `description`, `prompt` and `subagent_type` required
 */
export function buildTaskToolSchema(subagentNames: readonly string[]) {
  return {
    type: "object" as const,
    properties: {
      description: {
        type: "string" as const,
        description: "A short (3-5 words) label for the task, shown to the user.",
      },
      prompt: {
        type: "string" as const,
        description: "The complete task for the subagent, with all required context.",
      },
      subagent_type: {
        type: "string" as const,
        description: "Which subagent runs the task.",
        ...(subagentNames.length > 0 ? { enum: [...subagentNames] } : {}),
      },
      max_turns: {
        type: "integer" as const,
        minimum: 1,
        description: "Optional cap on the subagent's steps (lower than its default).",
      },
    },
    required: ["description", "prompt", "subagent_type"],
  };
}
