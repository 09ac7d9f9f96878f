/**
 * A model entry with a run's thinking fields applied (DeerFlow's names, from
 * `@deerflow/agent`'s `resolveRunThinking`): the entry a run's model variant is
 * created from. For OpenAI-compatible models `extra_body` and `reasoning_effort`
 * go into the request body (`ChatOpenAI`'s `modelKwargs`); other fields, and
 * every field of a plugin model, are constructor options.
 */
import type { ModelThinkingProfile } from "@deerflow/agent";
import type { ModelConfig } from "../config/types.js";

type Fields = Record<string, unknown>;

/**
 * @param entry - a configured model
 * @returns its thinking configuration for the agent's per-run resolution
 */
export function thinkingProfileOf(entry: ModelConfig): ModelThinkingProfile {
  return {
    supportsThinking: entry.supportsThinking,
    provider:
      entry.use.kind === "openai" || entry.use.kind === "anthropic" || entry.use.kind === "google"
        ? entry.use.kind
        : "other",
    ...(entry.supportsReasoningEffort === undefined ? {} : { supportsReasoningEffort: entry.supportsReasoningEffort }),
    ...(entry.whenThinkingEnabled === undefined ? {} : { whenThinkingEnabled: entry.whenThinkingEnabled }),
    ...(entry.whenThinkingDisabled === undefined ? {} : { whenThinkingDisabled: entry.whenThinkingDisabled }),
    ...(entry.reasoningEffort === undefined ? {} : { reasoningEffort: entry.reasoningEffort }),
  };
}

/**
 * @param entry - a configured model
 * @param fields - the run's fields
 * @returns the entry with the fields in its `options`
 */
export function withRunFields(entry: ModelConfig, fields: Readonly<Fields>): ModelConfig {
  if (entry.use.kind !== "openai") return { ...entry, options: { ...entry.options, ...fields } };
  const { extra_body: extraBody, reasoning_effort: effort, ...rest } = fields;
  const body: Fields = {
    ...(entry.options["modelKwargs"] as Fields | undefined),
    ...(extraBody as Fields | undefined),
    ...(effort === undefined ? {} : { reasoning_effort: effort }),
  };
  return {
    ...entry,
    options: { ...entry.options, ...rest, ...(Object.keys(body).length === 0 ? {} : { modelKwargs: body }) },
  };
}
