/**
 * What the extraction model returns (DeerFlow's `memory_update` JSON), and
 * the JSON Schema handed to `withStructuredOutput`.
 */

/** A section update as the model labels it. */
export interface SectionUpdateResult {
  readonly summary?: string;
  readonly shouldUpdate?: boolean;
  readonly scope?: string;
  readonly authority?: string;
}

/** A fact the model proposes. */
interface NewFactResult {
  readonly content?: unknown;
  readonly category?: unknown;
  readonly confidence?: unknown;
  readonly expected_valid_days?: unknown;
  readonly scope?: unknown;
  readonly durability?: unknown;
  readonly authority?: unknown;
  readonly sourceError?: unknown;
}

/** The model's whole answer (every part optional: a model may leave parts out). */
export interface MemoryUpdateResult {
  readonly user?: Readonly<Record<string, SectionUpdateResult | undefined>>;
  readonly history?: Readonly<Record<string, SectionUpdateResult | undefined>>;
  readonly newFacts?: readonly NewFactResult[];
  readonly factsToReinforce?: readonly { readonly id?: unknown; readonly scope?: unknown; readonly reason?: unknown }[];
  readonly factsToRemove?: readonly { readonly id?: unknown; readonly scope?: unknown; readonly reason?: unknown }[];
  readonly staleFactsToRemove?: readonly { readonly id?: unknown; readonly reason?: unknown }[];
  readonly staleFactsToExtend?: readonly {
    readonly id?: unknown;
    readonly extend_by_days?: unknown;
    readonly reason?: unknown;
  }[];
}

const section = {
  type: "object",
  properties: {
    summary: { type: "string" },
    shouldUpdate: { type: "boolean" },
    scope: { type: "string", enum: ["user", "conversation", "agent"] },
    authority: { type: "string", enum: ["descriptive", "directive"] },
  },
  required: ["summary", "shouldUpdate", "scope", "authority"],
} as const;

const idReason = {
  type: "object",
  properties: { id: { type: "string" }, scope: { type: "string" }, reason: { type: "string" } },
  required: ["id", "reason"],
} as const;

/** JSON Schema of {@link MemoryUpdateResult} (the structured-output schema, named `memory_update`). */
export const MEMORY_UPDATE_SCHEMA = {
  title: "memory_update",
  description: "Updates to the user's long-term memory after a conversation.",
  type: "object",
  properties: {
    user: {
      type: "object",
      properties: { workContext: section, personalContext: section, topOfMind: section },
    },
    history: {
      type: "object",
      properties: { recentMonths: section, earlierContext: section, longTermBackground: section },
    },
    newFacts: {
      type: "array",
      items: {
        type: "object",
        properties: {
          content: { type: "string" },
          category: {
            type: "string",
            enum: ["preference", "knowledge", "context", "behavior", "goal", "correction"],
          },
          confidence: { type: "number", minimum: 0, maximum: 1 },
          expected_valid_days: { type: "integer", minimum: 1 },
          scope: { type: "string", enum: ["user", "conversation", "agent"] },
          durability: { type: "string", enum: ["durable", "transient"] },
          authority: { type: "string", enum: ["descriptive", "directive"] },
          sourceError: { type: "string" },
        },
        required: ["content", "category", "confidence", "scope", "durability", "authority"],
      },
    },
    factsToReinforce: { type: "array", items: idReason },
    factsToRemove: { type: "array", items: idReason },
    staleFactsToRemove: { type: "array", items: idReason },
    staleFactsToExtend: {
      type: "array",
      items: {
        type: "object",
        properties: { id: { type: "string" }, extend_by_days: { type: "integer" }, reason: { type: "string" } },
        required: ["id", "extend_by_days"],
      },
    },
  },
  required: ["newFacts"],
} as const;
