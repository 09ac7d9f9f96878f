/**
 * `loadConfig`: finds and reads `config.yaml`, substitutes environment
 * references, validates, fills in defaults and reads `extensions_config.json`.
 * With no config file at all the result is a valid embedded configuration:
 * the demo model, the in-memory stream bridge, a file-backed checkpointer under
 * the data dir and the local sandbox.
 */
import fs from "node:fs/promises";
import path from "node:path";
import { substituteEnv } from "./env-substitution.js";
import { configError } from "./errors.js";
import { loadExtensionsConfig, locateServerExtensionsConfig, type ExtensionsConfig } from "./extensions-config.js";
import { parseYamlConfig } from "./parse-yaml.js";
import { resolveConfig } from "./resolve.js";
import type { ServerConfig } from "./types.js";
import { coerceReferencedScalars, dropNullKeys, validateConfigDocument } from "./validate.js";

/** Default config file name, looked up in the working directory. */
export const CONFIG_FILE_NAME = "config.yaml";

/** Options of {@link loadConfig}. */
export interface LoadConfigOptions {
  /** Config file; relative to `cwd`. When given it must exist. Default: `config.yaml` in `cwd` if present. */
  readonly path?: string;
  /** Environment for `$VAR` substitution, the scale-out defaults and `DEER_FLOW_EXTENSIONS_CONFIG_PATH`. Default `process.env`. */
  readonly env?: NodeJS.ProcessEnv;
  /** Working directory. Default `process.cwd()`. */
  readonly cwd?: string;
}

/** A loaded configuration and where it came from. */
export interface LoadedConfig {
  readonly config: ServerConfig;
  /** The config file, or `undefined` when running on embedded defaults. */
  readonly file: string | undefined;
  /** Folder relative paths (and relative `use:` plugins) resolve against: the file's folder, else `cwd`. */
  readonly baseDir: string;
  readonly extensions: ExtensionsConfig;
  /** Why each choice was made, for {@link describeConfig}. */
  readonly provenance: Readonly<Record<string, string>>;
}

/**
 * Loads the server configuration.
 *
 * @param options - file, environment, working directory
 * @returns the typed configuration with defaults, its source and the extensions config
 * @throws ServerConfigError `CONFIG_NOT_FOUND` (a named file is missing), `CONFIG_PARSE` (YAML/JSON syntax,
 *   with line numbers), `CONFIG_ENV` (unset variables, with key paths), `CONFIG_INVALID` (schema and cross-field
 *   problems, one `config.yaml: path: message` line each)
 * @example
 * ```ts
 * const loaded = await loadConfig({ path: "config.yaml" });
 * for (const line of describeConfig(loaded)) logger.info({}, line);
 * ```
 */
export async function loadConfig(options: LoadConfigOptions = {}): Promise<LoadedConfig> {
  const cwd = path.resolve(options.cwd ?? process.cwd());
  const env = options.env ?? process.env;
  const explicit = options.path !== undefined;
  const file = path.resolve(cwd, options.path ?? CONFIG_FILE_NAME);
  const label = path.basename(file);

  let text: string | undefined;
  try {
    text = await fs.readFile(file, "utf8");
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== "ENOENT" || explicit) {
      const why = code === "ENOENT" ? `file not found: ${file}` : `cannot read ${file}: ${(err as Error).message}`;
      throw configError("CONFIG_NOT_FOUND", label, [{ path: "", message: why }], err);
    }
  }

  const baseDir = text === undefined ? cwd : path.dirname(file);
  const parsed = text === undefined ? {} : parseYamlConfig(text, label);
  const withoutNulls = dropNullKeys(parsed);
  const { value, wholeReferences } = substituteEnv(withoutNulls, env, label);
  coerceReferencedScalars(value, wholeReferences);
  validateConfigDocument(value, label);
  const resolved = resolveConfig(value as Record<string, unknown>, { env, baseDir, label });
  const configured =
    (value as Record<string, unknown>)["extensions_config"] === undefined
      ? undefined
      : resolved.config.extensionsConfigPath;
  const located = await locateServerExtensionsConfig(configured, resolved.config.extensionsConfigPath, {
    env,
    baseDir,
    label,
  });
  const config = { ...resolved.config, extensionsConfigPath: located.path };
  const extensions = await loadExtensionsConfig(config.extensionsConfigPath, env);
  const provenance = {
    ...resolved.provenance,
    extensions_config: located.why,
    config: text === undefined ? "embedded defaults (no config.yaml)" : file,
  };
  return { config, file: text === undefined ? undefined : file, baseDir, extensions, provenance };
}

/**
 * Parses and resolves config text without touching the filesystem (tests, tools).
 * `extensionsConfigPath` is the configured or default path: only {@link loadConfig}
 * looks for the file (environment variable, `mcp_config.json`).
 *
 * @param text - YAML text
 * @param options - environment, base folder and label (default `config.yaml`)
 * @returns the typed configuration and provenance
 * @throws ServerConfigError as {@link loadConfig}
 */
export function parseConfigText(
  text: string,
  options: { env?: NodeJS.ProcessEnv; baseDir?: string; label?: string } = {},
): { config: ServerConfig; provenance: Readonly<Record<string, string>> } {
  const label = options.label ?? CONFIG_FILE_NAME;
  const env = options.env ?? {};
  const { value, wholeReferences } = substituteEnv(dropNullKeys(parseYamlConfig(text, label)), env, label);
  coerceReferencedScalars(value, wholeReferences);
  validateConfigDocument(value, label);
  return resolveConfig(value as Record<string, unknown>, {
    env,
    baseDir: path.resolve(options.baseDir ?? process.cwd()),
    label,
  });
}
