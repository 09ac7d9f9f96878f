/**
 * Per-run options of the lead agent, read from the run's `configurable`
 * (DeerFlow's keys), falling back to LangGraph's `context` — except the user,
 * which only `configurable.user_id` carries: the gateway writes it from the
 * authenticated caller over whatever the request sent.
 */

/** What a run may choose. */
export interface RunOptions {
  /** `model_name` (or `model`): one of the configured models. */
  readonly modelName?: string;
  /** `subagent_enabled`: `false` removes `task` for this run. */
  readonly subagentEnabled?: boolean;
  /** `max_concurrent_subagents`: `task` calls per response for this run. */
  readonly maxConcurrentSubagents?: number;
  /**
   * `configurable.user_id`: selects the user's sandbox folders. Set by the
   * gateway from the authenticated caller (never from a request body); `context.user_id` is not read.
   */
  readonly userId?: string;
}

/**
 * @param config - the run's config
 * @returns the options that are set and well-typed (others are ignored)
 */
export function readRunOptions(config: { readonly configurable?: Readonly<Record<string, unknown>>; readonly context?: Readonly<Record<string, unknown>> } | undefined): RunOptions {
  const pick = (key: string): unknown => config?.configurable?.[key] ?? config?.context?.[key];
  const str = (key: string): string | undefined => {
    const v = pick(key);
    return typeof v === "string" && v !== "" ? v : undefined;
  };
  const modelName = str("model_name") ?? str("model");
  const subagentEnabled = pick("subagent_enabled");
  const maxConcurrent = pick("max_concurrent_subagents");
  const user = config?.configurable?.["user_id"];
  const userId = typeof user === "string" && user !== "" ? user : undefined;
  return {
    ...(modelName === undefined ? {} : { modelName }),
    ...(typeof subagentEnabled === "boolean" ? { subagentEnabled } : {}),
    ...(typeof maxConcurrent === "number" && Number.isInteger(maxConcurrent) ? { maxConcurrentSubagents: maxConcurrent } : {}),
    ...(userId === undefined ? {} : { userId }),
  };
}
