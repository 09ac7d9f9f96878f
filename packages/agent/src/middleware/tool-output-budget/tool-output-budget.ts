/**
 * Tool-output budget — DeerFlow's `ToolOutputBudgetMiddleware` (chain row 2,
 * `tool_output.enabled`, default true): a tool result longer than
 * `externalize_min_chars` is written whole to
 * `/mnt/user-data/outputs/.tool-results/` in the thread's sandbox and
 * replaced by a synopsis, its first 2000 and last 1000 characters and the
 * file's path for `read_file`. When it cannot be written (no sandbox, a full
 * disk) and is longer than `fallback_max_chars`, it is cut to its first 8000
 * and last 3000 characters instead. Results of `exempt_tools` pass whole
 * (reading the saved file back must work); `tool_overrides` sets another
 * threshold per tool.
 *
 * Config keys (`tool_output:`): `enabled` (true), `externalize_min_chars`
 * (12000), `fallback_max_chars` (30000), `exempt_tools` (`read_file`,
 * `read_file_tool`), `tool_overrides` (`{ tool: threshold }`).
 */
import { OUTPUTS_PATH, type Sandbox } from "@deerflow/sandbox";
import { ToolMessage } from "@langchain/core/messages";
import { createMiddleware, type AgentMiddleware } from "langchain";
import { AgentError } from "../../errors.js";
import { silentLogger, type Logger } from "../../logger.js";
import type { RunConfigLike } from "../../run/run-options.js";
import { externalizedOutputText, truncatedOutputText } from "./texts.js";

/** Where oversized results are written, in the sandbox. */
export const TOOL_RESULTS_DIR = `${OUTPUTS_PATH}/.tool-results`;

/** Characters of the head and tail shown with a saved result, and of a cut one. */
export const TOOL_OUTPUT_SAMPLES = { head: 2000, tail: 1000, fallbackHead: 8000, fallbackTail: 3000 } as const;

/** Options of {@link createToolOutputBudgetMiddleware} (the `tool_output:` keys in camelCase). */
export interface ToolOutputBudgetOptions {
  /** The sandbox of the tool call's run; without it results are only cut. */
  readonly getSandbox?: (scope: RunConfigLike) => Promise<Sandbox>;
  /** `externalize_min_chars`: results longer than this are saved to a file. Default 12000. */
  readonly externalizeMinChars?: number;
  /** `fallback_max_chars`: results longer than this are cut when they cannot be saved. Default 30000. */
  readonly fallbackMaxChars?: number;
  /** `exempt_tools`: tools whose results always pass whole. Default `["read_file", "read_file_tool"]`. */
  readonly exemptTools?: readonly string[];
  /** `tool_overrides`: `externalize_min_chars` per tool. */
  readonly toolOverrides?: Readonly<Record<string, number>>;
  readonly logger?: Logger;
}

const DEFAULT_EXEMPT = ["read_file", "read_file_tool"];

function positive(key: string, value: number): number {
  if (!Number.isInteger(value) || value < 1)
    throw new AgentError("CONFIG_INVALID", `tool_output.${key} must be a positive integer, got ${value}`);
  return value;
}

/** A file name from the tool and its call (ids are provider-chosen: keep safe characters only). */
const fileName = (tool: string, callId: string): string =>
  `${`${tool}-${callId || Date.now().toString(36)}`.replace(/[^A-Za-z0-9_.-]/g, "_")}.txt`;

/**
 * Creates the tool-output budget middleware.
 *
 * @param options - the `tool_output:` settings and the run's sandbox
 * @returns a `wrapToolCall` middleware
 * @throws AgentError `CONFIG_INVALID` naming the key when a threshold is not a positive integer
 */
export function createToolOutputBudgetMiddleware(options: ToolOutputBudgetOptions = {}): AgentMiddleware {
  const logger = options.logger ?? silentLogger;
  const minChars = positive("externalize_min_chars", options.externalizeMinChars ?? 12_000);
  const fallbackMax = positive("fallback_max_chars", options.fallbackMaxChars ?? 30_000);
  const exempt = new Set(options.exemptTools ?? DEFAULT_EXEMPT);
  const overrides = new Map(
    Object.entries(options.toolOverrides ?? {}).map(([tool, n]) => [tool, positive(`tool_overrides.${tool}`, n)]),
  );

  const save = async (scope: RunConfigLike, path: string, text: string): Promise<boolean> => {
    if (options.getSandbox === undefined) return false;
    try {
      await (await options.getSandbox(scope)).writeFile(path, text);
      return true;
    } catch (err) {
      logger.warn({ err, path }, "tool output could not be saved; cutting it instead");
      return false;
    }
  };

  return createMiddleware({
    name: "ToolOutputBudgetMiddleware",
    wrapToolCall: async (request, handler) => {
      const result = await handler(request);
      const tool = request.toolCall.name;
      if (!ToolMessage.isInstance(result) || typeof result.content !== "string" || exempt.has(tool)) return result;
      const text = result.content;
      if (text.length <= (overrides.get(tool) ?? minChars)) return result;
      const path = `${TOOL_RESULTS_DIR}/${fileName(tool, request.toolCall.id ?? "")}`;
      let content: string;
      if (await save(request.runtime as RunConfigLike, path, text)) {
        content = externalizedOutputText({
          tool,
          text,
          path,
          headChars: TOOL_OUTPUT_SAMPLES.head,
          tailChars: TOOL_OUTPUT_SAMPLES.tail,
        });
      } else if (text.length > fallbackMax) {
        content = truncatedOutputText({
          text,
          headChars: TOOL_OUTPUT_SAMPLES.fallbackHead,
          tailChars: TOOL_OUTPUT_SAMPLES.fallbackTail,
        });
      } else {
        return result;
      }
      logger.info({ tool, chars: text.length, path }, "tool output over budget");
      return new ToolMessage({
        content,
        tool_call_id: result.tool_call_id,
        additional_kwargs: result.additional_kwargs,
        response_metadata: result.response_metadata,
        ...(result.name === undefined ? {} : { name: result.name }),
        ...(result.id === undefined ? {} : { id: result.id }),
        ...(result.status === undefined ? {} : { status: result.status }),
        ...(result.artifact === undefined ? {} : { artifact: result.artifact }),
      });
    },
  });
}
