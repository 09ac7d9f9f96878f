/**
 * The form of a custom agent, for creating one and for editing it: name (on
 * creation, with the server's availability check), description, model (the
 * server's models; empty = the default), tool groups (empty = all), skills
 * (all enabled ones, or a chosen few, or none), thinking, reasoning effort,
 * temperature and max tokens, and the SOUL (the agent's persona, Markdown).
 */
import type { SkillResponse } from "@deerflow/gateway";
import { useEffect, useId, useState, type FormEvent } from "react";
import { apiJson, errorText } from "../lib/api";
import { isNameAvailable, type Agent, type AgentBody } from "../lib/agents";
import { whileLive } from "../lib/whileLive";
import { Field } from "./Field";
import { useModels } from "./ModelPicker";

type SkillMode = "all" | "some";

function toNumber(text: string): number | null {
  return text.trim() === "" ? null : Number(text);
}

function useSkills(): SkillResponse[] {
  const [skills, setSkills] = useState<SkillResponse[]>([]);
  useEffect(() => whileLive(apiJson<{ skills: SkillResponse[] }>("/skills"), (body) => setSkills(body.skills)), []);
  return skills;
}

/** The form; `initial` is the agent being edited (its name cannot change), absent for a new one. */
export function AgentForm({
  initial,
  busy,
  submitLabel,
  onSubmit,
}: {
  initial?: Agent;
  busy: boolean;
  submitLabel: string;
  onSubmit: (body: AgentBody) => void;
}) {
  const id = useId();
  const { models } = useModels();
  const skills = useSkills();
  const [name, setName] = useState(initial?.name ?? "");
  const [nameNote, setNameNote] = useState("");
  const [description, setDescription] = useState(initial?.description ?? "");
  const [model, setModel] = useState(initial?.model ?? "");
  const [toolGroups, setToolGroups] = useState((initial?.tool_groups ?? []).join(", "));
  const [skillMode, setSkillMode] = useState<SkillMode>(
    initial?.skills === null || initial?.skills === undefined ? "all" : "some",
  );
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set(initial?.skills ?? []));
  const [thinking, setThinking] = useState(
    initial?.thinking_enabled === null || initial?.thinking_enabled === undefined
      ? ""
      : String(initial.thinking_enabled),
  );
  const [effort, setEffort] = useState(initial?.reasoning_effort ?? "");
  const [temperature, setTemperature] = useState(String(initial?.model_settings?.temperature ?? ""));
  const [maxTokens, setMaxTokens] = useState(String(initial?.model_settings?.max_tokens ?? ""));
  const [soul, setSoul] = useState(initial?.soul ?? "");

  const checkName = async () => {
    const n = name.trim();
    if (initial !== undefined || n === "") return setNameNote("");
    try {
      setNameNote((await isNameAvailable(n)) ? `“${n}” is available.` : `“${n}” is already taken.`);
    } catch (err) {
      setNameNote(errorText(err));
    }
  };

  const toggleSkill = (skill: string, on: boolean) => {
    const next = new Set(chosen);
    if (on) next.add(skill);
    else next.delete(skill);
    setChosen(next);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const groups = toolGroups
      .split(",")
      .map((g) => g.trim())
      .filter((g) => g !== "");
    const temp = toNumber(temperature);
    const max = toNumber(maxTokens);
    onSubmit({
      name: initial?.name ?? name.trim(),
      description: description.trim(),
      model: model === "" ? null : model,
      tool_groups: groups.length === 0 ? null : groups,
      skills: skillMode === "all" ? null : [...chosen],
      model_settings:
        temp === null && max === null
          ? null
          : { ...(temp === null ? {} : { temperature: temp }), ...(max === null ? {} : { max_tokens: max }) },
      thinking_enabled: thinking === "" ? null : thinking === "true",
      reasoning_effort: effort === "" ? null : (effort as "low" | "medium" | "high"),
      soul,
    });
  };

  // Skills the agent names that the server no longer lists stay choosable (and visible).
  const skillNames = [...new Set([...skills.map((s) => s.name), ...chosen])].sort();

  return (
    <form className="card agent-form" onSubmit={submit} data-testid="agent-form">
      {initial === undefined && (
        <div className="field">
          <label htmlFor={`${id}-name`}>Name</label>
          <input
            id={`${id}-name`}
            value={name}
            onChange={(e) => setName(e.target.value)}
            onBlur={() => void checkName()}
            required
            maxLength={64}
            aria-describedby={`${id}-name-help ${id}-name-note`}
          />
          <p id={`${id}-name-help`} className="hint">
            Letters, digits and hyphens; stored in lower case.
          </p>
          <p id={`${id}-name-note`} className="hint" role="status" data-testid="agent-name-note">
            {nameNote}
          </p>
        </div>
      )}
      <div className="field">
        <Field id={`${id}-description`} label="Description" value={description} onValue={setDescription} />
      </div>
      <div className="field-row">
        <label htmlFor={`${id}-model`}>Model</label>
        <select id={`${id}-model`} value={model} onChange={(e) => setModel(e.target.value)}>
          <option value="">Server default</option>
          {(models ?? []).map((m) => (
            <option key={m.name} value={m.name}>
              {m.display_name ?? m.name}
            </option>
          ))}
          {/* While the models load, the agent's own model is still an option, so the select keeps it. */}
          {model !== "" && (models === null || !models.some((m) => m.name === model)) && (
            <option value={model}>{models === null ? model : `${model} (not configured)`}</option>
          )}
        </select>
        <label htmlFor={`${id}-thinking`}>Thinking</label>
        <select id={`${id}-thinking`} value={thinking} onChange={(e) => setThinking(e.target.value)}>
          <option value="">Model default</option>
          <option value="true">On</option>
          <option value="false">Off</option>
        </select>
        <label htmlFor={`${id}-effort`}>Reasoning effort</label>
        <select id={`${id}-effort`} value={effort} onChange={(e) => setEffort(e.target.value)}>
          <option value="">Model default</option>
          <option value="low">low</option>
          <option value="medium">medium</option>
          <option value="high">high</option>
        </select>
      </div>
      <div className="field-row">
        <Field
          id={`${id}-temperature`}
          label="Temperature"
          type="number"
          min={0}
          max={2}
          step={0.1}
          className="narrow"
          value={temperature}
          onValue={setTemperature}
        />
        <Field
          id={`${id}-max-tokens`}
          label="Max tokens"
          type="number"
          min={1}
          step={1}
          className="narrow"
          value={maxTokens}
          onValue={setMaxTokens}
        />
      </div>
      <div className="field">
        <Field
          id={`${id}-tool-groups`}
          label="Tool groups"
          value={toolGroups}
          onValue={setToolGroups}
          hint={
            <>
              Comma-separated groups of config.yaml’s <code>tool_groups</code> (e.g. web, file:read); empty: every tool.
            </>
          }
        />
      </div>
      <fieldset className="field">
        <legend>Skills</legend>
        <label className="toggle">
          <input
            type="radio"
            name={`${id}-skill-mode`}
            checked={skillMode === "all"}
            onChange={() => setSkillMode("all")}
          />
          Every enabled skill
        </label>
        <label className="toggle">
          <input
            type="radio"
            name={`${id}-skill-mode`}
            checked={skillMode === "some"}
            onChange={() => setSkillMode("some")}
          />
          Only the skills checked below (none checked: no skills)
        </label>
        {skillMode === "some" && (
          <ul className="skill-choices" data-testid="agent-skill-choices">
            {skillNames.length === 0 && <li className="muted">The server lists no skills.</li>}
            {skillNames.map((s) => (
              <li key={s}>
                <label className="toggle">
                  <input type="checkbox" checked={chosen.has(s)} onChange={(e) => toggleSkill(s, e.target.checked)} />
                  {s}
                </label>
              </li>
            ))}
          </ul>
        )}
      </fieldset>
      <div className="field">
        <label htmlFor={`${id}-soul`}>SOUL (the agent’s persona, Markdown)</label>
        <textarea
          id={`${id}-soul`}
          className="soul-editor"
          rows={12}
          value={soul}
          onChange={(e) => setSoul(e.target.value)}
        />
      </div>
      <button type="submit" disabled={busy}>
        {submitLabel}
      </button>
    </form>
  );
}
