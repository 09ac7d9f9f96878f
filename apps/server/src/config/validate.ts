/**
 * Schema validation of a parsed, env-substituted config document, with one
 * message per problem naming the exact key path.
 */
import { Ajv, type ErrorObject } from "ajv";
import { configError, type ConfigProblem } from "./errors.js";
import { formatKeyPath, pointerToSegments, type KeySegment } from "./key-path.js";
import { CONFIG_SCHEMA, schemaTypesAt } from "./schema.js";

const ajv = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true });
const validateDocument = ajv.compile(CONFIG_SCHEMA);

/**
 * Removes mapping keys whose value is `null` (`server:` with nothing under it
 * counts as not set), recursively. Lists keep their items.
 *
 * @param node - parsed YAML
 * @returns a copy without null-valued keys
 */
export function dropNullKeys(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(dropNullKeys);
  if (typeof node === "object" && node !== null) {
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(node)) {
      if (value === null) continue;
      Object.defineProperty(out, key, {
        value: dropNullKeys(value),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return out;
  }
  return node;
}

/**
 * Converts whole-value environment references to the number or boolean the
 * schema expects at their path (`port: ${PORT}` → 2024). Values at paths that
 * accept strings, and values that do not parse, are left for validation to report.
 *
 * @param document - substituted document (mutated in place)
 * @param paths - paths of whole-value references
 */
export function coerceReferencedScalars(document: unknown, paths: readonly (readonly KeySegment[])[]): void {
  for (const path of paths) {
    const types = schemaTypesAt(CONFIG_SCHEMA, path);
    if (types.size === 0 || types.has("string")) continue;
    const parentPath = path.slice(0, -1);
    const key = path[path.length - 1];
    let parent: unknown = document;
    for (const s of parentPath) parent = (parent as Record<string | number, unknown> | undefined)?.[s];
    if (key === undefined || typeof parent !== "object" || parent === null) continue;
    const container = parent as Record<string | number, unknown>;
    const raw = container[key];
    if (typeof raw !== "string") continue;
    const text = raw.trim();
    if (
      (types.has("integer") && /^[+-]?\d+$/.test(text)) ||
      (types.has("number") && text !== "" && Number.isFinite(Number(text)))
    ) {
      container[key] = Number(text);
    } else if (types.has("boolean") && (text === "true" || text === "false")) {
      container[key] = text === "true";
    }
  }
}

function describeType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "object") return "a mapping";
  // Never echo the value itself: it may be a misplaced secret.
  return `a ${typeof value}`;
}

function valueAt(data: unknown, segments: readonly KeySegment[]): unknown {
  let node = data;
  for (const s of segments) node = (node as Record<string | number, unknown> | undefined)?.[s];
  return node;
}

function allowedKeys(schemaPath: string): string[] {
  // schemaPath ends with /additionalProperties; the sibling `properties` lists what is allowed.
  const parts = schemaPath.replace(/^#\//, "").split("/").slice(0, -1);
  let node: unknown = CONFIG_SCHEMA;
  for (const p of parts)
    node = (node as Record<string, unknown> | undefined)?.[p.replace(/~1/g, "/").replace(/~0/g, "~")];
  const props = (node as { properties?: Record<string, unknown> } | undefined)?.properties;
  return props ? Object.keys(props) : [];
}

function toProblem(error: ErrorObject, data: unknown): ConfigProblem {
  const segments = pointerToSegments(error.instancePath, data);
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case "additionalProperties": {
      const key = String(params["additionalProperty"]);
      return {
        path: formatKeyPath([...segments, key]),
        message: `unknown key (allowed: ${allowedKeys(error.schemaPath).join(", ")})`,
      };
    }
    case "required":
      return { path: formatKeyPath([...segments, String(params["missingProperty"])]), message: "is required" };
    case "enum":
      return {
        path: formatKeyPath(segments),
        message: `must be one of: ${(params["allowedValues"] as unknown[]).map(String).join(", ")}`,
      };
    case "type":
      return {
        path: formatKeyPath(segments),
        message: `${error.message ?? "has the wrong type"} (got ${describeType(valueAt(data, segments))})`,
      };
    case "pattern":
      return {
        path: formatKeyPath(segments),
        message:
          segments.at(-1) === "container_path"
            ? "must be an absolute path (start with /)"
            : `must match ${String(params["pattern"])}`,
      };
    default:
      return { path: formatKeyPath(segments), message: error.message ?? error.keyword };
  }
}

/**
 * Validates a document against {@link CONFIG_SCHEMA}.
 *
 * @param document - parsed, substituted, null-free document
 * @param label - file label for messages
 * @throws ServerConfigError `CONFIG_INVALID` listing every problem as `label: path: message`
 */
export function validateConfigDocument(document: unknown, label: string): void {
  if (validateDocument(document)) return;
  const seen = new Set<string>();
  const problems: ConfigProblem[] = [];
  for (const error of validateDocument.errors ?? []) {
    const problem = toProblem(error, document);
    const key = `${problem.path}\u0000${problem.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    problems.push(problem);
  }
  throw configError("CONFIG_INVALID", label, problems);
}
