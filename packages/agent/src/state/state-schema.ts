/**
 * A minimal Standard Schema (the interface LangGraph's `StateSchema` accepts)
 * built from a JSON Schema and a type guard, so middleware state channels can
 * be declared without a validation library.
 */

/** The Standard Schema shape (validation + JSON Schema) LangGraph state fields accept. */
export interface ValueSchema<T> {
  readonly "~standard": {
    readonly version: 1;
    readonly vendor: string;
    readonly validate: (
      value: unknown,
    ) => { readonly value: T } | { readonly issues: readonly { readonly message: string }[] };
    readonly jsonSchema: {
      readonly input: (options?: unknown) => Record<string, unknown>;
      readonly output: (options?: unknown) => Record<string, unknown>;
    };
    readonly types?: { readonly input: T; readonly output: T };
  };
}

/**
 * Creates a schema for a state value.
 *
 * @param jsonSchema - JSON Schema of the value (shown to LangGraph Studio and the API)
 * @param check - type guard validating a value
 * @param fallback - default value when the state has none
 * @returns a Standard Schema (`~standard` with `validate` and `jsonSchema`)
 */
export function valueSchema<T>(
  jsonSchema: Record<string, unknown>,
  check: (value: unknown) => value is T,
  fallback?: () => T,
): ValueSchema<T> {
  return {
    "~standard": {
      version: 1,
      vendor: "deerflow",
      validate: (value: unknown): { value: T } | { issues: { message: string }[] } => {
        if (value === undefined && fallback !== undefined) return { value: fallback() };
        return check(value) ? { value } : { issues: [{ message: `expected ${JSON.stringify(jsonSchema)}` }] };
      },
      jsonSchema: { input: () => jsonSchema, output: () => jsonSchema },
    },
  };
}
