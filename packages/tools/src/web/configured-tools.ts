/**
 * `createConfiguredTools`: the `tools:` section as LangChain tools. Built-ins
 * read their options from the store at each call (hot reload); plugin tools
 * (`use: "<module>:<export>"`) are loaded once through the caller's loader.
 */
import { isClass, silentLogger } from "@deerflow/kernel";
import type { StructuredToolInterface } from "@langchain/core/tools";
import type { ToolConfigStore } from "./config/tool-config-store.js";
import type { ToolEntry } from "./config/tool-entry.js";
import { storeOptions, type WebToolDeps } from "./tool-runtime.js";
import { createImageSearchTool, createWebFetchTool, createWebSearchTool } from "./web-tools.js";

/** A tool with the group it was configured in. */
export interface ConfiguredTool {
  readonly tool: StructuredToolInterface;
  readonly group: string;
  /** The entry's `name` (the tool's own name may differ for plugins). */
  readonly entryName: string;
}

/** Options of {@link createConfiguredTools}. */
export interface CreateConfiguredToolsOptions extends WebToolDeps {
  readonly store: ToolConfigStore;
  /**
   * Imports a plugin's export (`"<module>:<export>"`); the server passes its
   * plugin loader, which knows the config folder. Without it plugin entries fail.
   */
  readonly loadExport?: (use: string) => Promise<unknown>;
}

/** Whether a value looks like a LangChain tool (what a plugin must produce). */
export function isToolLike(value: unknown): value is StructuredToolInterface {
  const v = value as Partial<StructuredToolInterface> | null;
  return (
    typeof v === "object" &&
    v !== null &&
    typeof v.name === "string" &&
    v.name !== "" &&
    typeof v.invoke === "function" &&
    typeof v.description === "string"
  );
}

async function pluginTool(entry: ToolEntry, options: CreateConfiguredToolsOptions): Promise<StructuredToolInterface> {
  if (options.loadExport === undefined)
    throw new TypeError(`tool '${entry.name}': use '${entry.use}' needs a plugin loader (loadExport)`);
  const exported = await options.loadExport(entry.use);
  let made: unknown = exported;
  if (!isToolLike(exported) && typeof exported === "function") {
    const factoryOptions = { ...entry.options, logger: options.logger ?? silentLogger };
    made = isClass(exported)
      ? new (exported as new (o: unknown) => unknown)(factoryOptions)
      : await (exported as (o: unknown) => unknown)(factoryOptions);
  }
  if (!isToolLike(made))
    throw new TypeError(
      `tool '${entry.name}': '${entry.use}' is not a tool (expected a LangChain tool, or a class or function making one)`,
    );
  if (made.name !== entry.name)
    (options.logger ?? silentLogger).warn(
      { entry: entry.name, tool: made.name },
      "tools: entry name differs from the plugin tool's own name; the tool's name is used",
    );
  return made;
}

/**
 * Builds every configured tool. Names are de-duplicated, the first one winning
 * (DeerFlow's rule), with a warning for the others.
 *
 * @param options - the store and dependencies
 * @returns the tools with their groups, in config order
 * @throws TypeError / PluginLoadError when a plugin tool cannot be loaded
 * @example
 * ```ts
 * const { config, problems } = validateToolsConfig(yamlDocument);
 * const tools = await createConfiguredTools({ store: new ToolConfigStore(config) });
 * const forRun = toolsForGroups(tools, ["web"]);
 * ```
 */
export async function createConfiguredTools(options: CreateConfiguredToolsOptions): Promise<readonly ConfiguredTool[]> {
  const out: ConfiguredTool[] = [];
  const names = new Set<string>();
  for (const entry of options.store.config.tools) {
    let made: StructuredToolInterface;
    if (entry.kind === undefined) made = await pluginTool(entry, options);
    else {
      const common = { ...options, name: entry.name, liveOptions: storeOptions(options.store, entry.name) };
      made =
        entry.kind === "web_search"
          ? createWebSearchTool({ ...common, provider: entry.use })
          : entry.kind === "web_fetch"
            ? createWebFetchTool({ ...common, provider: entry.use })
            : createImageSearchTool({ ...common, provider: entry.use });
    }
    if (names.has(made.name)) {
      (options.logger ?? silentLogger).warn({ tool: made.name }, "tools: duplicate tool name dropped (first wins)");
      continue;
    }
    names.add(made.name);
    out.push({ tool: made, group: entry.group, entryName: entry.name });
  }
  return out;
}

/**
 * The tools whose group is in the whitelist.
 *
 * @param tools - configured tools
 * @param groups - allowed groups; `undefined` allows all (DeerFlow's `None`)
 * @returns the tools
 */
export function toolsForGroups(
  tools: readonly ConfiguredTool[],
  groups: readonly string[] | undefined,
): StructuredToolInterface[] {
  return tools.filter((t) => groups === undefined || groups.includes(t.group)).map((t) => t.tool);
}

/**
 * A per-run filter for the agent's `toolFilters`: hides the configured tools
 * outside a run's `tool_groups` whitelist (a run without one keeps them all).
 *
 * @param tools - configured tools
 * @returns the names a run must not get
 */
export function toolGroupFilter(
  tools: readonly ConfiguredTool[],
): (run: { readonly toolGroups?: readonly string[] }) => string[] {
  return (run) => {
    const groups = run.toolGroups;
    return groups === undefined ? [] : tools.filter((t) => !groups.includes(t.group)).map((t) => t.tool.name);
  };
}
