/**
 * A provider's options checked against its JSON Schema (the kind's common
 * keys plus the provider's own), defaults filled in.
 */
import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import type { ToolConfigProblem, WebToolKind } from "./tool-entry.js";

const ajv = new Ajv({ allErrors: true, strict: true, useDefaults: true });

const timeout = (seconds: number) => ({ type: "number", exclusiveMinimum: 0, maximum: 600, default: seconds });
const maxResults = { type: "integer", minimum: 1, maximum: 100, default: 5 };

/** Options every tool of a kind takes, whatever its provider (DeerFlow's key names). */
const COMMON: Record<WebToolKind, Record<string, unknown>> = {
  web_search: { max_results: maxResults, timeout: timeout(30) },
  image_search: { max_results: maxResults, timeout: timeout(30) },
  web_fetch: {
    timeout: timeout(20),
    max_chars: { type: "integer", minimum: 100, default: 4096 },
    allow_private_addresses: { type: "boolean", default: false },
  },
};

/** What a provider contributes to the schema. */
interface HasOptionsSchema {
  readonly optionsSchema: Readonly<Record<string, unknown>>;
}

const cache = new Map<WebToolKind, WeakMap<HasOptionsSchema, ValidateFunction>>();

function validatorFor(kind: WebToolKind, provider: HasOptionsSchema): ValidateFunction {
  let perKind = cache.get(kind);
  if (perKind === undefined) cache.set(kind, (perKind = new WeakMap()));
  let v = perKind.get(provider);
  if (v === undefined) {
    v = ajv.compile({
      type: "object",
      properties: { ...COMMON[kind], ...provider.optionsSchema },
      additionalProperties: false,
    });
    perKind.set(provider, v);
  }
  return v;
}

function problemOf(error: ErrorObject, at: string): ToolConfigProblem {
  const field = error.instancePath.replace(/^\//, "").replace(/\//g, ".");
  const join = (f: string): string => (at === "" ? f : f === "" ? at : `${at}.${f}`);
  const params = error.params as Record<string, unknown>;
  if (error.keyword === "additionalProperties")
    return { path: join(String(params["additionalProperty"])), message: "unknown key for this provider" };
  if (error.keyword === "enum")
    return {
      path: join(field),
      message: `must be one of: ${(params["allowedValues"] as unknown[]).map(String).join(", ")}`,
    };
  return { path: join(field), message: error.message ?? error.keyword };
}

/**
 * Validates a provider's options.
 *
 * @param kind - the tool
 * @param provider - the provider (its `optionsSchema`)
 * @param raw - options as written (snake_case); not mutated
 * @param at - key path prefix of messages, e.g. `tools[2]`
 * @returns the options with defaults, or the problems
 */
export function checkProviderOptions(
  kind: WebToolKind,
  provider: HasOptionsSchema,
  raw: Readonly<Record<string, unknown>>,
  at: string,
): { readonly options: Record<string, unknown>; readonly problems: readonly ToolConfigProblem[] } {
  const options = structuredClone(raw) as Record<string, unknown>;
  const validate = validatorFor(kind, provider);
  if (validate(options)) return { options, problems: [] };
  return { options, problems: (validate.errors ?? []).map((e) => problemOf(e, at)) };
}
