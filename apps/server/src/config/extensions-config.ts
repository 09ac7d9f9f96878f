/**
 * `extensions_config.json`: the enabled state of skills (the format
 * `@deerflow/skills` reads and writes: `skills.<name>.enabled`, a missing entry
 * means enabled) and MCP-style server entries (`mcpServers.<name>`), which are
 * validated and kept for MCP support but not used by the agent yet.
 */
import fs from "node:fs/promises";
import path from "node:path";
import {
  EXTENSIONS_CONFIG_PATH_ENV,
  locateExtensionsConfig,
  parseExtensionsConfig,
  SkillsError,
} from "@deerflow/skills";
import { Ajv } from "ajv";
import { substituteEnv } from "./env-substitution.js";
import { configError } from "./errors.js";
import { formatKeyPath, pointerToSegments } from "./key-path.js";

/** One MCP server entry (the shape DeerFlow's `extensions_config.json` uses). */
export interface McpServerConfig {
  readonly enabled: boolean;
  readonly type: "stdio" | "sse" | "http";
  readonly command?: string;
  readonly args?: readonly string[];
  readonly env?: Readonly<Record<string, string>>;
  readonly url?: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly description?: string;
}

/** What the server knows from `extensions_config.json`. */
export interface ExtensionsConfig {
  /** Absolute path (the file may not exist). */
  readonly path: string;
  readonly exists: boolean;
  /** Explicit `skills.<name>.enabled` values; a missing name means enabled. */
  readonly skillStates: ReadonlyMap<string, boolean>;
  readonly mcpServers: Readonly<Record<string, McpServerConfig>>;
}

/** Where {@link locateServerExtensionsConfig} found the file, and why (for `describeConfig`). */
export interface ServerExtensionsConfigLocation {
  /** Absolute path (the file may not exist: the first skill toggle creates it). */
  readonly path: string;
  readonly why: string;
}

/**
 * Finds `extensions_config.json` with the lookup `@deerflow/skills` shares with
 * its CLI (DeerFlow's order): the `extensions_config` key of `config.yaml`,
 * then `DEER_FLOW_EXTENSIONS_CONFIG_PATH`, then `extensions_config.json` and
 * the legacy `mcp_config.json` in `baseDir`. The configured key may name a file
 * that does not exist yet, and so may the default (`<baseDir>/extensions_config.json`):
 * skill toggles create it there.
 *
 * @param configured - the `extensions_config` key made absolute, or `undefined` when the key is not set
 * @param defaultPath - where the file goes when nothing is found
 * @param options - environment, folder searched and the config file label
 * @returns the path and the reason it was chosen
 * @throws ServerConfigError `CONFIG_NOT_FOUND` when `DEER_FLOW_EXTENSIONS_CONFIG_PATH` names no file, or the configured path is a folder
 */
export async function locateServerExtensionsConfig(
  configured: string | undefined,
  defaultPath: string,
  options: { readonly env: NodeJS.ProcessEnv; readonly baseDir: string; readonly label: string },
): Promise<ServerExtensionsConfigLocation> {
  let location;
  try {
    location = await locateExtensionsConfig({
      explicit:
        configured === undefined
          ? undefined
          : { path: configured, label: `\`extensions_config\` in ${options.label}`, mayBeMissing: true },
      env: options.env,
      searchDirs: [options.baseDir],
      fallback: defaultPath,
      cwd: options.baseDir,
    });
  } catch (err) {
    if (SkillsError.isInstance(err) && err.code === "CONFIG_NOT_FOUND")
      throw configError("CONFIG_NOT_FOUND", path.basename(defaultPath), [{ path: "", message: err.message }], err);
    throw err;
  }
  const why = {
    explicit: "config",
    environment: `environment (${EXTENSIONS_CONFIG_PATH_ENV} is set)`,
    search: "found by search (extensions_config.json, then mcp_config.json)",
    default: "default",
    none: "default",
  }[location.source];
  return { path: location.path ?? defaultPath, why };
}

const stringMap = { type: "object", additionalProperties: { type: "string" } };
const MCP_SCHEMA = {
  type: "object",
  additionalProperties: {
    type: "object",
    properties: {
      enabled: { type: "boolean" },
      type: { enum: ["stdio", "sse", "http"] },
      command: { type: "string", minLength: 1 },
      args: { type: "array", items: { type: "string" } },
      env: stringMap,
      url: { type: "string", minLength: 1 },
      headers: stringMap,
      description: { type: "string" },
    },
  },
};
const ajv = new Ajv({ allErrors: true, strict: false });
const validateMcp = ajv.compile(MCP_SCHEMA);

/**
 * Reads and validates `extensions_config.json`. A missing file is fine (every
 * skill enabled, no MCP servers). `$VAR` references are substituted inside
 * enabled `mcpServers` entries only, so a disabled server's missing secret does
 * not stop the server.
 *
 * @param filePath - absolute path
 * @param env - environment for substitution
 * @returns the parsed extensions
 * @throws ServerConfigError `CONFIG_PARSE` for invalid JSON, `CONFIG_INVALID` for a wrong shape, `CONFIG_ENV` for unset variables
 */
export async function loadExtensionsConfig(filePath: string, env: NodeJS.ProcessEnv): Promise<ExtensionsConfig> {
  const label = path.basename(filePath);
  let text: string;
  try {
    text = await fs.readFile(filePath, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT")
      return { path: filePath, exists: false, skillStates: new Map(), mcpServers: {} };
    throw configError(
      "CONFIG_NOT_FOUND",
      label,
      [{ path: "", message: `cannot read ${filePath}: ${(err as Error).message}` }],
      err,
    );
  }
  let data: unknown = {};
  if (text.trim() !== "") {
    try {
      data = JSON.parse(text);
    } catch (err) {
      throw configError("CONFIG_PARSE", label, [{ path: "", message: `invalid JSON: ${(err as Error).message}` }], err);
    }
  }
  let snapshot;
  try {
    snapshot = parseExtensionsConfig(JSON.stringify(data), label);
  } catch (err) {
    throw configError(
      "CONFIG_INVALID",
      label,
      [{ path: "", message: (err as Error).message.replace(`${label} `, "") }],
      err,
    );
  }
  const rawServers = (snapshot.data as Record<string, unknown>)["mcpServers"] ?? {};
  if (!validateMcp(rawServers)) {
    const problems = (validateMcp.errors ?? []).map((e) => ({
      path: formatKeyPath(["mcpServers", ...pointerToSegments(e.instancePath, rawServers)]),
      message:
        e.keyword === "enum"
          ? `must be one of: ${(e.params as { allowedValues: unknown[] }).allowedValues.join(", ")}`
          : (e.message ?? e.keyword),
    }));
    throw configError("CONFIG_INVALID", label, problems);
  }
  const mcpServers: Record<string, McpServerConfig> = {};
  for (const [name, entry] of Object.entries(rawServers as Record<string, Record<string, unknown>>)) {
    const enabled = (entry["enabled"] as boolean | undefined) ?? true;
    const resolved = enabled
      ? ((
          substituteEnv({ mcpServers: { [name]: entry } }, env, label).value as {
            mcpServers: Record<string, Record<string, unknown>>;
          }
        ).mcpServers[name] ?? entry)
      : entry;
    const pick = <T>(key: string): T | undefined => resolved[key] as T | undefined;
    mcpServers[name] = {
      enabled,
      type: pick<"stdio" | "sse" | "http">("type") ?? (pick<string>("url") !== undefined ? "http" : "stdio"),
      ...(pick<string>("command") === undefined ? {} : { command: pick<string>("command") as string }),
      ...(pick<string[]>("args") === undefined ? {} : { args: pick<string[]>("args") as string[] }),
      ...(pick<Record<string, string>>("env") === undefined
        ? {}
        : { env: pick<Record<string, string>>("env") as Record<string, string> }),
      ...(pick<string>("url") === undefined ? {} : { url: pick<string>("url") as string }),
      ...(pick<Record<string, string>>("headers") === undefined
        ? {}
        : { headers: pick<Record<string, string>>("headers") as Record<string, string> }),
      ...(pick<string>("description") === undefined ? {} : { description: pick<string>("description") as string }),
    };
  }
  return { path: filePath, exists: true, skillStates: snapshot.skillStates, mcpServers };
}
