/**
 * The composer's model picker: the server's models (`GET /api/models`, the
 * default first); a run is sent with the chosen one as `context.model_name`.
 */
import { useEffect, useState } from "react";
import { apiJson, errorText } from "../lib/api";
import { whileLive } from "../lib/whileLive";

/** One model as `GET /api/models` lists it. */
export interface ModelInfo {
  readonly name: string;
  readonly model: string;
  readonly display_name: string | null;
  readonly description: string | null;
  readonly supports_thinking: boolean;
  readonly supports_reasoning_effort: boolean;
}

/** The server's models, loaded once per mount (`null` while loading). */
export function useModels(): { models: ModelInfo[] | null; error: string | null } {
  const [models, setModels] = useState<ModelInfo[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(
    () =>
      whileLive(
        apiJson<{ models: ModelInfo[] }>("/models"),
        (body) => setModels(body.models),
        (err) => setError(errorText(err)),
      ),
    [],
  );
  return { models, error };
}

/**
 * A labelled select of the models; `value` is a model name (the first model when unset).
 * With `unsetLabel`, unset is its own first choice (e.g. a custom agent's own model), and
 * choosing it calls `onChange(null)`.
 */
export function ModelPicker({
  models,
  value,
  onChange,
  disabled,
  unsetLabel,
}: {
  models: readonly ModelInfo[];
  value: string | null;
  onChange: (name: string | null) => void;
  disabled?: boolean;
  unsetLabel?: string;
}) {
  if (models.length === 0) return null;
  const chosen = models.find((m) => m.name === value) ?? (unsetLabel === undefined ? models[0] : undefined);
  return (
    <label className="model-picker" title={chosen?.description ?? undefined}>
      Model{" "}
      <select
        value={chosen?.name ?? ""}
        onChange={(e) => onChange(e.target.value === "" ? null : e.target.value)}
        disabled={disabled}
        data-testid="model-picker"
      >
        {unsetLabel !== undefined && <option value="">{unsetLabel}</option>}
        {models.map((m) => (
          <option key={m.name} value={m.name}>
            {m.display_name ?? m.name}
          </option>
        ))}
      </select>
    </label>
  );
}
