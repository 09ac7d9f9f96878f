/**
 * The title middleware's options from `config.yaml` (`title:`), and the hook
 * that copies a thread's title into its metadata in the run store, so thread
 * search (and the console's thread list) shows it.
 */
import type { LeadAgentOptions, LeadMiddlewareOptions } from "@deerflow/agent";
import type { RunStore } from "@deerflow/runtime";
import type { ServerConfig } from "../config/types.js";
import type { Logger } from "../logger.js";

/**
 * @param config - the resolved configuration
 * @returns `title` for `createLeadAgent({ middleware })` (absent in hand-built configs: DeerFlow's defaults)
 */
export function titleMiddlewareOptions(config: ServerConfig): Pick<LeadMiddlewareOptions, "title"> {
  return config.title === undefined ? {} : { title: { ...config.title } };
}

/**
 * Adds the metadata hook to the agent's options.
 *
 * @param options - the lead agent's options
 * @param store - the run store holding the threads
 * @param logger - receives a failed update (the run goes on)
 * @returns the options with `middleware.title.onTitle` writing `metadata.title`
 */
export function withThreadTitles(
  options: LeadAgentOptions,
  store: Pick<RunStore, "updateThread">,
  logger: Logger,
): LeadAgentOptions {
  const onTitle = async (
    title: string,
    config: { readonly configurable?: Readonly<Record<string, unknown>> | undefined },
  ): Promise<void> => {
    const threadId = config.configurable?.["thread_id"];
    if (typeof threadId !== "string") return;
    await store
      .updateThread(threadId, { metadata: { title } })
      .catch((err: unknown) => logger.warn({ err, threadId }, "could not store the thread's title"));
  };
  const middleware = options.middleware ?? {};
  return { ...options, middleware: { ...middleware, title: { ...middleware.title, onTitle } } };
}
