/**
 * Validation of `tools:` and `tool_groups:`: each built-in entry against its
 * provider's JSON Schema (ajv), defaults filled in, every problem named by key
 * path. Plugin entries (`use: "<module>:<export>"`) keep their options as
 * written; the plugin judges them.
 */
import { isUseSpec } from "@deerflow/kernel";
import { IMAGE_SEARCH_PROVIDERS } from "../image/providers.js";
import { WEB_FETCH_PROVIDERS } from "../fetch/providers.js";
import { WEB_SEARCH_PROVIDERS } from "../search/providers.js";
import { checkProviderOptions } from "./provider-options.js";
import type { ToolConfigProblem, ToolEntry, ToolsConfig, WebToolKind } from "./tool-entry.js";

const REGISTRIES = {
  web_search: WEB_SEARCH_PROVIDERS,
  web_fetch: WEB_FETCH_PROVIDERS,
  image_search: IMAGE_SEARCH_PROVIDERS,
} as const;

const KINDS = Object.keys(REGISTRIES) as WebToolKind[];

/**
 * Which built-in tool an entry is: its `name` when that is a tool name, else
 * the one kind its provider id serves.
 */
function kindOf(name: string, use: string): WebToolKind | "ambiguous" | undefined {
  if ((KINDS as string[]).includes(name)) return name as WebToolKind;
  const kinds = KINDS.filter((k) => REGISTRIES[k][use] !== undefined);
  return kinds.length === 1 ? kinds[0] : kinds.length > 1 ? "ambiguous" : undefined;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * Validates the two sections as read from YAML.
 *
 * @param document - the whole parsed config (only `tools` and `tool_groups` are read)
 * @returns the entries, or the problems (each with its key path)
 * @example
 * ```ts
 * const r = validateToolsConfig({ tools: [{ name: "web_search", group: "web", use: "brave", max_result: 5 }] });
 * // r.problems: [{ path: "tools[0].max_result", message: "unknown key for this provider" }]
 * ```
 */
export function validateToolsConfig(document: Readonly<Record<string, unknown>>): {
  readonly config: ToolsConfig;
  readonly problems: readonly ToolConfigProblem[];
} {
  const problems: ToolConfigProblem[] = [];
  const toolGroups: string[] = [];
  const rawGroups = document["tool_groups"] ?? [];
  if (!Array.isArray(rawGroups)) problems.push({ path: "tool_groups", message: "must be a list" });
  else
    rawGroups.forEach((g, i) => {
      const name = isRecord(g) ? g["name"] : undefined;
      if (typeof name !== "string" || name === "")
        problems.push({ path: `tool_groups[${i}].name`, message: "is required (a non-empty string)" });
      else toolGroups.push(name);
    });

  const tools: ToolEntry[] = [];
  const rawTools = document["tools"] ?? [];
  if (!Array.isArray(rawTools)) problems.push({ path: "tools", message: "must be a list" });
  const seen = new Map<string, number>();
  (Array.isArray(rawTools) ? rawTools : []).forEach((raw, i) => {
    const at = `tools[${i}]`;
    if (!isRecord(raw)) {
      problems.push({ path: at, message: "must be a mapping with name, group and use" });
      return;
    }
    const { name, group, use, ...rest } = raw;
    let ok = true;
    for (const [key, value] of [
      ["name", name],
      ["group", group],
      ["use", use],
    ] as const) {
      if (typeof value !== "string" || value.trim() === "") {
        problems.push({ path: `${at}.${key}`, message: "is required (a non-empty string)" });
        ok = false;
      }
    }
    if (!ok) return;
    const entryName = name as string;
    const entryGroup = group as string;
    const entryUse = (use as string).trim();
    const earlier = seen.get(entryName);
    if (earlier !== undefined)
      problems.push({ path: `${at}.name`, message: `duplicate tool name '${entryName}' (also tools[${earlier}])` });
    seen.set(entryName, i);
    if (toolGroups.length > 0 && !toolGroups.includes(entryGroup))
      problems.push({
        path: `${at}.group`,
        message: `'${entryGroup}' is not declared under tool_groups (declared: ${toolGroups.join(", ")})`,
      });
    if (isUseSpec(entryUse)) {
      tools.push({ name: entryName, group: entryGroup, use: entryUse, options: rest });
      return;
    }
    const kind = kindOf(entryName, entryUse);
    if (kind === undefined || kind === "ambiguous") {
      const known = KINDS.map((k) => `${k}: ${Object.keys(REGISTRIES[k]).join(", ")}`).join("; ");
      problems.push({
        path: `${at}.use`,
        message:
          kind === "ambiguous"
            ? `'${entryUse}' serves several tools; name the entry web_search, web_fetch or image_search`
            : `unknown provider '${entryUse}' for '${entryName}' (built-in: ${known}; or "<module>:<export>" for a plugin tool)`,
      });
      return;
    }
    if (REGISTRIES[kind][entryUse] === undefined) {
      problems.push({
        path: `${at}.use`,
        message: `unknown ${kind} provider '${entryUse}' (built-in: ${Object.keys(REGISTRIES[kind]).join(", ")}; or "<module>:<export>" for a plugin tool)`,
      });
      return;
    }
    const checked = checkProviderOptions(kind, REGISTRIES[kind][entryUse], rest, at);
    if (checked.problems.length > 0) {
      problems.push(...checked.problems);
      return;
    }
    const options = checked.options;
    tools.push({ name: entryName, group: entryGroup, use: entryUse, options, kind });
  });
  return { config: { tools, toolGroups }, problems };
}
