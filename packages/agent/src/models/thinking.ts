/**
 * DeerFlow's per-run thinking and reasoning-effort resolution (§5.2), as the
 * constructor fields a run's model variant gets on top of its configured ones:
 *
 * - thinking: the run's `thinking_enabled`, else **on**; a model without
 *   `supports_thinking` runs with thinking off (the caller warns when the run asked for it);
 * - on: `when_thinking_enabled` (with `thinking` already merged in);
 * - off: `when_thinking_disabled`, else a disable derived from the provider: an
 *   OpenAI-compatible `extra_body.thinking.type` becomes `{"thinking":{"type":"disabled"}}`
 *   plus `reasoning_effort: "minimal"`; vLLM's `extra_body.chat_template_kwargs` get
 *   `thinking` / `enable_thinking` false; native Anthropic gets `thinking: {type: "disabled"}`;
 * - `reasoning_effort` (the run's, else the model's) only with `supports_reasoning_effort`,
 *   sent in `extra_body` for OpenAI-compatible models.
 *
 * Fields use DeerFlow's names (`extra_body`); the model factory maps them to its
 * provider's constructor (for `ChatOpenAI`, `extra_body` is merged into `modelKwargs`).
 */

/** What a configured model says about thinking (DeerFlow's `ModelConfig` keys, camelCase). */
export interface ModelThinkingProfile {
  readonly supportsThinking: boolean;
  readonly supportsReasoningEffort?: boolean;
  readonly whenThinkingEnabled?: Readonly<Record<string, unknown>>;
  readonly whenThinkingDisabled?: Readonly<Record<string, unknown>>;
  /** The model's default `reasoning_effort`. */
  readonly reasoningEffort?: string;
  /** The provider family, for the derived disable. Default `openai` (OpenAI-compatible). */
  readonly provider?: "openai" | "anthropic" | "google" | "other";
}

/** A run's switches. */
export interface RunThinkingRequest {
  /** `thinking_enabled`; undefined: not asked (on). */
  readonly thinkingEnabled?: boolean;
  /** `reasoning_effort`: `low`, `medium`, `high` (`minimal` / `none` where the provider takes them). */
  readonly reasoningEffort?: string;
}

/** The outcome for one run. */
export interface RunThinking {
  readonly thinkingEnabled: boolean;
  /** True when the run asked for thinking on a model without `supports_thinking`. */
  readonly thinkingRefused: boolean;
  /** Constructor fields of the run's variant (empty: the configured model as it is). */
  readonly fields: Readonly<Record<string, unknown>>;
}

type Fields = Record<string, unknown>;
const asRecord = (v: unknown): Fields | undefined =>
  typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Fields) : undefined;

function derivedDisable(profile: ModelThinkingProfile): Fields {
  const enabled = profile.whenThinkingEnabled ?? {};
  if (profile.provider === "anthropic") return { thinking: { type: "disabled" } };
  const extraBody = asRecord(enabled["extra_body"]);
  if (asRecord(extraBody?.["thinking"])?.["type"] !== undefined)
    return { extra_body: { thinking: { type: "disabled" } }, reasoning_effort: "minimal" };
  const templateKwargs = asRecord(extraBody?.["chat_template_kwargs"]);
  if (templateKwargs !== undefined) {
    const off: Fields = {};
    if ("thinking" in templateKwargs) off["thinking"] = false;
    if ("enable_thinking" in templateKwargs) off["enable_thinking"] = false;
    return { extra_body: { chat_template_kwargs: { ...templateKwargs, ...off } } };
  }
  return {};
}

/**
 * Resolves a run's thinking and effort for a model.
 *
 * @param profile - the model's configuration
 * @param request - the run's switches
 * @returns whether thinking is on, and the variant's constructor fields
 * @example
 * ```ts
 * resolveRunThinking({ supportsThinking: true, whenThinkingEnabled: { extra_body: { thinking: { type: "enabled" } } } }, { thinkingEnabled: false });
 * // { thinkingEnabled: false, thinkingRefused: false, fields: { extra_body: { thinking: { type: "disabled" } }, reasoning_effort: "minimal" } }
 * ```
 */
export function resolveRunThinking(profile: ModelThinkingProfile, request: RunThinkingRequest): RunThinking {
  const wanted = request.thinkingEnabled ?? true;
  const thinkingEnabled = wanted && profile.supportsThinking;
  const fields: Fields = thinkingEnabled
    ? { ...profile.whenThinkingEnabled }
    : profile.supportsThinking
      ? { ...(profile.whenThinkingDisabled ?? derivedDisable(profile)) }
      : {};
  const effort = request.reasoningEffort ?? profile.reasoningEffort;
  // Dropped unless supported (the derived disable's "minimal" stays: DeerFlow sends it).
  if (profile.supportsReasoningEffort === true && effort !== undefined) fields["reasoning_effort"] = effort;
  return { thinkingEnabled, thinkingRefused: request.thinkingEnabled === true && !profile.supportsThinking, fields };
}
