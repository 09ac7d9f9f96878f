/**
 * Reading a run's memory scope from its config: the user from
 * `configurable.user_id` (a host such as the DeerFlow gateway writes it from
 * the authenticated caller; `context` is client-chosen and never read for
 * identity), the agent from `configurable.agent_name` or `context.agent_name`.
 */
import type { MemoryScope } from "./types.js";

/** The part of a run's config (or a middleware's `runtime`) the scope is read from. */
export interface RunScopeSource {
  readonly configurable?: Readonly<Record<string, unknown>> | undefined;
  readonly context?: unknown;
}

const text = (v: unknown): string | undefined => (typeof v === "string" && v !== "" ? v : undefined);

/**
 * @param config - the run's config
 * @param defaults - user when the run names none (embedded single-user agents), agent when none
 * @returns the scope, or `undefined` without a user
 */
export function memoryScopeOf(
  config: RunScopeSource | undefined,
  defaults: { readonly userId?: string; readonly agentName?: string } = {},
): MemoryScope | undefined {
  const userId = text(config?.configurable?.["user_id"]) ?? defaults.userId;
  if (userId === undefined) return undefined;
  const context =
    typeof config?.context === "object" && config.context !== null ? (config.context as Record<string, unknown>) : {};
  const agentName = text(config?.configurable?.["agent_name"]) ?? text(context["agent_name"]) ?? defaults.agentName;
  return agentName === undefined ? { userId } : { userId, agentName };
}

/** @returns `configurable.thread_id` */
export function threadIdOf(config: RunScopeSource | undefined): string | undefined {
  return text(config?.configurable?.["thread_id"]);
}
