/**
 * The tools bound to the demo model, as OpenAI-format definitions, and
 * argument fitting: the demo only emits calls whose arguments match the
 * bound tool's JSON Schema (known keys, required keys present, enum values).
 */

/** A bound tool as the model sees it. */
export interface BoundTool {
  readonly name: string;
  readonly parameters: JsonSchemaObject;
}

/** The subset of JSON Schema the demo reads. */
interface JsonSchemaObject {
  readonly properties?: Readonly<Record<string, { readonly enum?: readonly unknown[]; readonly type?: unknown }>>;
  readonly required?: readonly string[];
}

/**
 * Reads OpenAI-format tool definitions (`{ type: "function", function: { name, parameters } }`).
 *
 * @param tools - the `tools` call option
 * @returns name → tool
 */
export function readBoundTools(tools: unknown): Map<string, BoundTool> {
  const out = new Map<string, BoundTool>();
  if (!Array.isArray(tools)) return out;
  for (const t of tools) {
    const fn = (t as { function?: { name?: unknown; parameters?: unknown } } | null)?.function;
    if (typeof fn?.name !== "string") continue;
    out.set(fn.name, { name: fn.name, parameters: (fn.parameters ?? {}) as JsonSchemaObject });
  }
  return out;
}

/**
 * Fits intended arguments to a tool's schema: unknown keys are dropped, enum
 * values replaced by a preferred allowed value (or the first), and the call is
 * refused (`undefined`) when a required key is missing.
 *
 * @param tool - the bound tool
 * @param args - intended arguments
 * @param enumPreferences - preferred values per enum key
 * @returns the fitted arguments, or `undefined`
 */
export function fitArgs(
  tool: BoundTool,
  args: Record<string, unknown>,
  enumPreferences: Readonly<Record<string, string>> = {},
): Record<string, unknown> | undefined {
  const props = tool.parameters.properties;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(args)) {
    const prop = props?.[key];
    if (props !== undefined && prop === undefined) continue;
    if (prop?.enum !== undefined && !prop.enum.includes(value)) {
      const preferred = enumPreferences[key];
      out[key] = preferred !== undefined && prop.enum.includes(preferred) ? preferred : prop.enum[0];
      continue;
    }
    out[key] = value;
  }
  for (const key of tool.parameters.required ?? []) if (!(key in out)) return undefined;
  return out;
}
