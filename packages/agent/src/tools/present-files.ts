/**
 * The `present_files` tool (DeerFlow's): marks files under
 * `/mnt/user-data/outputs` as deliverables shown to the user. Paths are
 * normalised, must be files inside the outputs folder and must exist; the
 * accepted paths are merged into the thread's `artifacts`.
 */
import path from "node:path";
import type { Sandbox } from "@deerflow/sandbox";
import { ToolMessage } from "@langchain/core/messages";
import { tool, type ToolRunnableConfig } from "@langchain/core/tools";
import type { JSONSchema } from "@langchain/core/utils/json_schema";
import { Command } from "@langchain/langgraph";

/** Tool name. */
export const PRESENT_FILES_TOOL_NAME = "present_files";

/** Virtual folder of deliverables. */
export const OUTPUTS_DIR = "/mnt/user-data/outputs";

/** JSON Schema of the arguments. */
const PRESENT_FILES_SCHEMA: JSONSchema = {
  type: "object",
  properties: {
    filepaths: {
      type: "array",
      items: { type: "string" },
      minItems: 1,
      description: `Absolute paths of the files to present, all under ${OUTPUTS_DIR}/.`,
    },
  },
  required: ["filepaths"],
};

const DESCRIPTION = `Present finished files to the user (they appear as deliverables in the UI).

Only files under ${OUTPUTS_DIR}/ can be presented: write or copy deliverables there first. Call this once the files are complete.`;

/**
 * Checks one path: normalised, inside the outputs folder (not the folder itself), no `..`.
 *
 * @param raw - the model's path
 * @returns the normalised path, or an error text
 */
export function checkOutputPath(raw: string): { ok: true; path: string } | { ok: false; error: string } {
  if (typeof raw !== "string" || raw.trim() === "") return { ok: false, error: "empty path" };
  if (raw.split(/[\\/]/).includes("..")) return { ok: false, error: `${raw}: path traversal is not allowed` };
  const normalised = path.posix.normalize(raw.trim());
  if (!normalised.startsWith(`${OUTPUTS_DIR}/`) || normalised === `${OUTPUTS_DIR}/`) {
    return { ok: false, error: `${raw}: only files under ${OUTPUTS_DIR}/ can be presented` };
  }
  return { ok: true, path: normalised.replace(/\/+$/, "") };
}

async function isFile(sandbox: Sandbox, file: string): Promise<boolean> {
  try {
    const entries = await sandbox.listDir(path.posix.dirname(file), { maxDepth: 1 });
    return entries.includes(file);
  } catch {
    return false;
  }
}

/**
 * Creates the `present_files` tool.
 *
 * @param getSandbox - the sandbox of the call's run (to check that the files exist)
 * @returns the LangChain tool; it answers with a `Command` updating `artifacts` and adding its ToolMessage
 */
export function createPresentFilesTool(getSandbox: (config: ToolRunnableConfig | undefined) => Promise<Sandbox>) {
  return tool(
    async (args: { filepaths: string[] }, config?: ToolRunnableConfig): Promise<Command | string> => {
      const toolCallId = config?.toolCall?.id ?? "";
      const accepted: string[] = [];
      const errors: string[] = [];
      const sandbox = await getSandbox(config);
      for (const raw of args.filepaths ?? []) {
        const checked = checkOutputPath(raw);
        if (!checked.ok) errors.push(checked.error);
        else if (!(await isFile(sandbox, checked.path))) errors.push(`${checked.path}: file not found`);
        else if (!accepted.includes(checked.path)) accepted.push(checked.path);
      }
      if (errors.length > 0) {
        return new Command({
          update: {
            messages: [
              new ToolMessage({
                content: `Error: cannot present files: ${errors.join("; ")}. Nothing was presented.`,
                tool_call_id: toolCallId,
                name: PRESENT_FILES_TOOL_NAME,
                status: "error",
              }),
            ],
          },
        });
      }
      return new Command({
        update: {
          artifacts: accepted,
          messages: [
            new ToolMessage({
              content: `Successfully presented files: ${accepted.join(", ")}`,
              tool_call_id: toolCallId,
              name: PRESENT_FILES_TOOL_NAME,
              artifact: accepted,
            }),
          ],
        },
      });
    },
    { name: PRESENT_FILES_TOOL_NAME, description: DESCRIPTION, schema: PRESENT_FILES_SCHEMA },
  );
}
