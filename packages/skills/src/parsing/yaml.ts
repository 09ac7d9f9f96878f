import { load } from "js-yaml";
import { MAX_YAML_ALIASES } from "../limits.js";

/** Most nodes a frontmatter document may expand to once aliases are followed. */
const MAX_YAML_EXPANDED_NODES = 10_000;

/** Outcome of loading frontmatter YAML. */
export type YamlLoadResult =
  | { readonly ok: true; readonly value: unknown }
  | {
      readonly ok: false;
      /** `yaml-invalid` for syntax errors, `yaml-alias-bomb` for alias expansion attacks. */
      readonly code: "yaml-invalid" | "yaml-alias-bomb";
      /** The parser's reason, without its code excerpt. */
      readonly reason: string;
      /** 0-based line within the YAML text, when known. */
      readonly line: number | undefined;
    };

interface YamlErrorShape {
  reason?: unknown;
  message?: unknown;
  mark?: { line?: unknown };
}

/**
 * Loads YAML with js-yaml's safe core schema (no custom tags, no merge keys)
 * and rejects alias/anchor expansion bombs twice over: a cap on alias nodes at
 * parse time, and a cap on the expanded node count (aliases share objects in
 * memory, but validators and serializers walk them expanded).
 */
export function loadFrontmatterYaml(text: string): YamlLoadResult {
  // An empty block is a document with no value, not a syntax error.
  if (text.trim() === "") return { ok: true, value: null };
  let value: unknown;
  try {
    value = load(text, { maxAliases: MAX_YAML_ALIASES });
  } catch (err) {
    const e = err as YamlErrorShape;
    const reason = typeof e.reason === "string" ? e.reason : String(e.message ?? err);
    const line = typeof e.mark?.line === "number" ? e.mark.line : undefined;
    return { ok: false, code: /maxAliases/.test(reason) ? "yaml-alias-bomb" : "yaml-invalid", reason, line };
  }
  if (countNodes(value, MAX_YAML_EXPANDED_NODES) > MAX_YAML_EXPANDED_NODES) {
    return {
      ok: false,
      code: "yaml-alias-bomb",
      reason: `document expands to more than ${MAX_YAML_EXPANDED_NODES} nodes`,
      line: undefined,
    };
  }
  return { ok: true, value };
}

/** Counts nodes of the expanded tree, stopping as soon as `limit` is passed. */
function countNodes(root: unknown, limit: number): number {
  let count = 0;
  const stack: unknown[] = [root];
  while (stack.length > 0 && count <= limit) {
    const node = stack.pop();
    count += 1;
    if (Array.isArray(node)) for (const child of node) stack.push(child);
    else if (node !== null && typeof node === "object") for (const child of Object.values(node)) stack.push(child);
  }
  return count;
}
