/**
 * The `ask_clarification` tool (DeerFlow's): the model asks the user a
 * question instead of guessing. The clarification middleware intercepts every
 * call and turns it into a LangGraph interrupt; the tool body only runs if the
 * middleware is missing, and then just returns the question.
 */
import { tool } from "@langchain/core/tools";
import type { JSONSchema } from "@langchain/core/utils/json_schema";

/** Tool name. */
export const ASK_CLARIFICATION_TOOL_NAME = "ask_clarification";

/** DeerFlow's five clarification types. */
export const CLARIFICATION_TYPES = [
  "missing_info",
  "ambiguous_requirement",
  "approach_choice",
  "risk_confirmation",
  "suggestion",
] as const;

/** One of {@link CLARIFICATION_TYPES}. */
export type ClarificationType = (typeof CLARIFICATION_TYPES)[number];

/** Arguments of `ask_clarification`. */
export interface AskClarificationArgs {
  readonly question: string;
  readonly clarification_type: ClarificationType;
  readonly context?: string | null;
  readonly options?: readonly string[] | null;
}

/** JSON Schema of the arguments. */
const ASK_CLARIFICATION_SCHEMA: JSONSchema = {
  type: "object",
  properties: {
    question: { type: "string", description: "The question to ask the user. Be specific." },
    clarification_type: {
      type: "string",
      enum: [...CLARIFICATION_TYPES],
      description: "missing_info | ambiguous_requirement | approach_choice | risk_confirmation | suggestion",
    },
    context: {
      anyOf: [{ type: "string" }, { type: "null" }],
      default: null,
      description: "Why you are asking (optional).",
    },
    options: {
      anyOf: [{ type: "array", items: { type: "string" } }, { type: "null" }],
      default: null,
      description: "Choices to offer the user (optional).",
    },
  },
  required: ["question", "clarification_type"],
};

const DESCRIPTION = `Ask the user for clarification when you cannot proceed safely without their input.

Use it when information is missing, the request can be read several ways, there are several reasonable approaches, an action is risky (deleting files, touching production), or you want to suggest something and need agreement.
The run stops until the user answers; their answer comes back as this tool's result. Ask one clear question; offer options when there are natural choices. Do not call other tools in the same response.`;

/**
 * Creates the `ask_clarification` tool.
 *
 * @returns the LangChain tool
 */
export function createAskClarificationTool() {
  return tool(async (args: AskClarificationArgs): Promise<string> => args.question, {
    name: ASK_CLARIFICATION_TOOL_NAME,
    description: DESCRIPTION,
    schema: ASK_CLARIFICATION_SCHEMA,
  });
}
