/**
 * The `tools:` of `config.yaml` as the lead agent's tools. Built-in tools read
 * their options from a store that checks, before each call, whether the config
 * file changed (DeerFlow's signature: mtime and size, then a content hash) and
 * re-reads it then, so a changed `api_key` or `max_results` applies to the
 * next call without a restart. A file that no longer loads keeps the previous
 * options, with a warning. Adding or removing whole tools needs a restart (the
 * agent is compiled once).
 */
import { createHash } from "node:crypto";
import { readFile, stat } from "node:fs/promises";
import type { StructuredToolInterface } from "@langchain/core/tools";
import {
  ToolConfigStore,
  createConfiguredTools,
  toolGroupFilter,
  toolsForGroups,
  type ConfiguredTool,
} from "@deerflow/tools";
import { loadConfig, type LoadedConfig } from "../config/load-config.js";
import type { Logger } from "../logger.js";
import { loadExport } from "../plugins/index.js";
import { pdfToMarkdown } from "../uploads/document-converter.js";

/** What {@link createConfiguredToolDeps} built. */
export interface ConfiguredToolDeps {
  /** Every configured tool with its group. */
  readonly configured: readonly ConfiguredTool[];
  /** The tools in allowed groups (`undefined`: all), for the agent's `tools`. */
  tools(groups?: readonly string[]): StructuredToolInterface[];
  /** For the agent's `toolFilters`: hides the configured tools outside a run's `tool_groups`. */
  readonly runFilter: (run: { readonly toolGroups?: readonly string[] }) => string[];
  readonly store: ToolConfigStore;
}

interface Signature {
  readonly mtimeMs: number;
  readonly size: number;
  readonly hash: string;
}

/** Re-reads `config.yaml` when its signature changed; concurrent callers share one reload. */
function fileRefresher(
  loaded: LoadedConfig,
  options: { env: NodeJS.ProcessEnv; cwd: string; logger: Logger },
  onChange: (next: LoadedConfig) => void,
): () => Promise<void> {
  const file = loaded.file;
  if (file === undefined) return async () => {};
  let last: Signature | undefined;
  let pending: Promise<void> | undefined;
  const check = async (): Promise<void> => {
    let st;
    try {
      st = await stat(file);
    } catch {
      return; // a file being replaced; the next call sees the new one
    }
    if (last !== undefined && st.mtimeMs === last.mtimeMs && st.size === last.size) return;
    const text = await readFile(file);
    const hash = createHash("sha256").update(text).digest("hex");
    const changed = last !== undefined && hash !== last.hash;
    last = { mtimeMs: st.mtimeMs, size: st.size, hash };
    if (!changed) return;
    try {
      const next = await loadConfig({ path: file, cwd: options.cwd, env: options.env });
      onChange(next);
      options.logger.info({ file }, "tools: config.yaml changed; tool options reloaded");
    } catch (err) {
      options.logger.warn(
        { file, error: (err as Error).message },
        "tools: config.yaml changed but does not load; the previous tool options stay",
      );
    }
  };
  return () => {
    pending ??= check().finally(() => {
      pending = undefined;
    });
    return pending;
  };
}

/**
 * Builds the configured tools of a loaded config.
 *
 * @param loaded - result of `loadConfig`
 * @param options - logger, environment (for `$VAR`s and API key fallbacks), working directory
 * @returns the tools and their store
 * @throws PluginLoadError / TypeError when a plugin tool cannot be loaded
 */
export async function createConfiguredToolDeps(
  loaded: LoadedConfig,
  options: { readonly logger: Logger; readonly env: NodeJS.ProcessEnv; readonly cwd: string },
): Promise<ConfiguredToolDeps> {
  const initial = loaded.config.tools ?? { tools: [], toolGroups: [] };
  let store: ToolConfigStore | undefined;
  const refresh = fileRefresher(loaded, options, (next) => {
    const names = new Set(initial.tools.map((t) => t.name));
    const added = (next.config.tools?.tools ?? []).filter((t) => !names.has(t.name)).map((t) => t.name);
    if (added.length > 0)
      options.logger.warn(
        { added },
        "tools: new tool entries are offered after a restart; options of existing ones apply now",
      );
    store?.replace(next.config.tools ?? { tools: [], toolGroups: [] });
  });
  store = new ToolConfigStore(initial, { refresh });
  await refresh(); // the first signature
  const configured = await createConfiguredTools({
    store,
    env: options.env,
    logger: options.logger,
    // The uploads converter's pdf.js text extraction (loaded on the first PDF only).
    pdfToMarkdown,
    loadExport: (use) =>
      loadExport(use, { cwd: options.cwd, configDir: loaded.baseDir, expect: "any", purpose: "tool" }),
  });
  return {
    configured,
    tools: (groups) => toolsForGroups(configured, groups),
    runFilter: toolGroupFilter(configured),
    store,
  };
}
