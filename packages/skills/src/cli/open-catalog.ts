import path from "node:path";
import { SkillCatalog } from "../catalog/catalog.js";
import { ExtensionsConfigStore } from "../catalog/extensions-config.js";
import {
  EXTENSIONS_CONFIG_FILE_NAMES,
  EXTENSIONS_CONFIG_PATH_ENV,
  locateExtensionsConfig,
  type ExtensionsConfigLocation,
} from "../catalog/locate-extensions-config.js";
import type { CliIo } from "./io.js";

/** Options of the commands that read the catalog (`list`, `prompt`). */
export interface CatalogCommandOptions {
  readonly root: string;
  /** The `--extensions-config` value, if given. */
  readonly extensionsConfig?: string;
}

/** A catalog opened for one command, with the extensions config it uses. */
export interface OpenedCatalog {
  readonly catalog: SkillCatalog;
  readonly extensionsConfig: ExtensionsConfigLocation;
}

/**
 * Opens the catalog of `--root` with the enabled state of the extensions config
 * found as DeerFlow finds it: `--extensions-config`, then
 * `DEER_FLOW_EXTENSIONS_CONFIG_PATH`, then the current folder, then the folder
 * holding the skills root. Says on stderr which file was read (stdout stays
 * machine-readable), and reads it strictly, so a broken file is an error
 * instead of every skill silently counting as enabled.
 *
 * @throws SkillsError `CONFIG_NOT_FOUND` when the flag or the variable names no file; `CONFIG_INVALID` for a malformed file.
 */
export async function openCatalog(options: CatalogCommandOptions, io: CliIo): Promise<OpenedCatalog> {
  const cwd = process.cwd();
  const root = path.resolve(cwd, options.root);
  const rootParent = path.dirname(root);
  const location = await locateExtensionsConfig({
    explicit:
      options.extensionsConfig === undefined
        ? undefined
        : { path: options.extensionsConfig, label: "`--extensions-config`" },
    searchDirs: [cwd, rootParent],
    cwd,
  });
  io.stderr(`${describeLocation(location, cwd, rootParent)}\n`);
  if (location.path !== undefined) await new ExtensionsConfigStore(location.path).read();
  const catalog = new SkillCatalog({
    root,
    ...(location.path === undefined ? {} : { extensionsConfigPath: location.path }),
  });
  return { catalog, extensionsConfig: location };
}

/** The stderr line naming the extensions config and why it was chosen. */
function describeLocation(location: ExtensionsConfigLocation, cwd: string, rootParent: string): string {
  if (location.path === undefined) {
    const dirs = [...new Set([cwd, rootParent])].join(" and ");
    return `extensions config: none found (looked for ${EXTENSIONS_CONFIG_FILE_NAMES.join(", then ")} in ${dirs}); every skill is enabled`;
  }
  const why =
    location.source === "explicit"
      ? "from --extensions-config"
      : location.source === "environment"
        ? `from ${EXTENSIONS_CONFIG_PATH_ENV}`
        : path.dirname(location.path) === cwd
          ? "found in the current folder"
          : "found next to the skills root";
  return `extensions config: read from ${location.path} (${why})`;
}
