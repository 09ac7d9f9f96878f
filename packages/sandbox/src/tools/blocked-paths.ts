/**
 * The blocked-path hook: how a server keeps the read tools away from the files
 * of disabled skills. The requested path is refused with the hook's text;
 * results found under an allowed root are filtered.
 */
import type { ToolRunnableConfig } from "@langchain/core/tools";
import type { Logger } from "../logger.js";

/**
 * Decides whether a virtual path may be read. Returns the refusal text
 * (without the `Error: ` prefix), e.g. `Skill 'x' is disabled. Access to its
 * files is blocked. Enable the skill in settings before using it.`, or null to
 * allow. A hook that throws blocks the path (fail closed).
 */
export type PathBlockedHook = (
  virtualPath: string,
  config?: ToolRunnableConfig,
) => Promise<string | null> | string | null;

/**
 * Asks the hook about one path.
 *
 * @param hook - The configured hook, if any.
 * @param path - A virtual path (directories without their trailing `/`).
 * @param config - The tool call's config (lets the hook find the user).
 * @param logger - Receives hook failures.
 * @returns The refusal text, or null when allowed.
 */
export async function blockedReason(
  hook: PathBlockedHook | undefined,
  path: string,
  config: ToolRunnableConfig | undefined,
  logger: Logger,
): Promise<string | null> {
  if (hook === undefined) return null;
  try {
    const reason = await hook(path, config);
    return typeof reason === "string" && reason !== "" ? reason : null;
  } catch (err) {
    // An access check that cannot decide must refuse, never serve a disabled skill's files.
    logger.warn(
      { path, err: err instanceof Error ? err.message : String(err) },
      "blocked-path hook failed; denying access",
    );
    return `Access to ${path} is blocked because its access check failed.`;
  }
}

/** A directory entry is asked about without its trailing slash. */
function hookPath(entry: string): string {
  return entry.length > 1 && entry.endsWith("/") ? entry.slice(0, -1) : entry;
}

/**
 * Keeps the items whose path the hook allows. Each distinct path is asked
 * once per call (a 100-match grep in one file is one question).
 *
 * @param hook - The configured hook, if any.
 * @param items - Results of ls/glob/grep.
 * @param pathOf - The virtual path of an item.
 * @param config - The tool call's config.
 * @param logger - Receives hook failures.
 * @returns The allowed items, in their original order.
 */
export async function dropBlocked<T>(
  hook: PathBlockedHook | undefined,
  items: readonly T[],
  pathOf: (item: T) => string,
  config: ToolRunnableConfig | undefined,
  logger: Logger,
): Promise<T[]> {
  if (hook === undefined) return [...items];
  const distinct = [...new Set(items.map((item) => hookPath(pathOf(item))))];
  const verdicts = new Map<string, boolean>();
  await Promise.all(
    distinct.map(async (path) => {
      verdicts.set(path, (await blockedReason(hook, path, config, logger)) === null);
    }),
  );
  return items.filter((item) => verdicts.get(hookPath(pathOf(item))) === true);
}
