/**
 * `memory.manager_class: "<module>:<export>"`: a `MemoryBackend` plugin (DeerFlow's
 * dotted class path), loaded with the server's `use:` loader and given the
 * `backend_config` keys that are not DeerMem's (snake_case, as written) plus
 * `logger`. The built-in `deermem` and `noop` load nothing.
 */
import { MEMORY_BACKEND_SHAPE, isMemoryBackend, type MemoryBackend } from "@deerflow/memory";
import type { MemoryConfigSettings } from "../config/resolve-memory.js";
import type { Logger } from "../logger.js";
import { loadPlugin } from "../plugins/index.js";

/**
 * @param memory - the resolved `memory:` settings
 * @param lookup - where plugin modules are looked up
 * @param logger - handed to the plugin
 * @returns `{ backend }` for a plugin, else nothing
 * @throws PluginLoadError when the module, the export or the instance is wrong
 */
export async function loadMemoryBackend(
  memory: MemoryConfigSettings,
  lookup: { cwd: string; configDir: string },
  logger: Logger,
): Promise<{ backend?: MemoryBackend }> {
  if (memory.managerClass === "deermem" || memory.managerClass === "noop") return {};
  const backend = await loadPlugin(memory.managerClass, {
    ...lookup,
    options: { ...memory.backendOptions, logger },
    purpose: "memory backend",
    shape: MEMORY_BACKEND_SHAPE,
    check: isMemoryBackend,
  });
  return { backend };
}
