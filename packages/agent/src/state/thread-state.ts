/**
 * The lead agent's extra state channels (DeerFlow's `ThreadState` fields):
 * `sandbox` (`{ sandbox_id }` of the thread's sandbox), `artifacts` (files
 * presented with `present_files`, merged without duplicates across runs),
 * `title`, `todos` (plan mode) and `token_usage` / `run_token_usage`.
 *
 * Declared at agent level (`createAgent({ stateSchema })`) rather than in the
 * middlewares' own state schemas: langchain parses a middleware's state schema
 * (making a fresh partial zod object of it) on every model call the middleware
 * wraps, and once per `invoke`; channels the agent declares cost nothing per
 * call. The chain creates those middlewares with `declareState: false`.
 */
import { ReducedValue, StateSchema } from "@langchain/langgraph";
import { PlanModeState } from "../middleware/plan-mode/plan-mode-middleware.js";
import { titleStateField } from "../middleware/title/title-middleware.js";
import { TokenUsageState } from "../middleware/token-usage/token-usage.js";
import { valueSchema } from "./state-schema.js";

/** What the state records about the sandbox. */
export interface SandboxStateValue {
  readonly sandbox_id: string;
}

/**
 * Merges presented paths, keeping first-seen order and dropping duplicates.
 *
 * @param current - paths already presented
 * @param update - newly presented paths
 * @returns the merged list
 */
export function mergeArtifacts(
  current: readonly string[] | undefined,
  update: readonly string[] | undefined,
): string[] {
  return [...new Set([...(current ?? []), ...(update ?? [])])];
}

const isSandboxValue = (v: unknown): v is SandboxStateValue | undefined =>
  v === undefined ||
  (typeof v === "object" && v !== null && typeof (v as { sandbox_id?: unknown }).sandbox_id === "string");
const isOptionalText = (v: unknown): v is string | undefined => v === undefined || typeof v === "string";
const isPathList = (v: unknown): v is string[] => Array.isArray(v) && v.every((p) => typeof p === "string");
const pathList = valueSchema<string[]>({ type: "array", items: { type: "string" } }, isPathList, () => []);

/** State schema of the lead agent (on top of `messages`). */
export const LeadAgentState = new StateSchema({
  sandbox: valueSchema<SandboxStateValue | undefined>(
    { type: "object", properties: { sandbox_id: { type: "string" } } },
    isSandboxValue,
  ),
  artifacts: new ReducedValue(pathList, { inputSchema: pathList, reducer: mergeArtifacts }),
  // TitleMiddleware's channel (a middleware's own StateSchema would be parsed with zod).
  title: titleStateField,
  // setup_agent's record of the custom agent a bootstrap run created (DeerFlow's `created_agent_name`).
  created_agent_name: valueSchema<string | undefined>({ type: "string" }, isOptionalText),
  // PlanModeMiddleware's and TokenUsageMiddleware's channels (created with declareState: false).
  ...PlanModeState.fields,
  ...TokenUsageState.fields,
});
