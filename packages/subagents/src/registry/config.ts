/**
 * Configuration accepted by {@link SubagentRegistry} and its validation.
 * Input usually comes from YAML, so every field is checked at runtime.
 */
import { SubagentError } from "../errors.js";
import type { SubagentConfig } from "../types.js";

/** Per-agent override (built-in or custom). */
export interface SubagentOverride {
  readonly timeoutMs?: number;
  readonly maxTurns?: number;
  /** Model name; `inherit` uses the parent's model. */
  readonly model?: string;
}

/** A custom subagent as written in configuration. */
export interface CustomSubagentInput {
  readonly description: string;
  readonly systemPrompt: string;
  readonly tools?: readonly string[];
  /** Defaults to `task, ask_clarification, present_files`; `task` is always added. */
  readonly disallowedTools?: readonly string[];
  readonly model?: string;
  /** Default 50. */
  readonly maxTurns?: number;
  /** Default 900 000 (15 minutes). */
  readonly timeoutMs?: number;
}

/** The `subagents:` section of the app configuration. */
export interface SubagentsConfig {
  /** Wall clock of built-ins (default 1 800 000). */
  readonly timeoutMs?: number;
  /** Global `maxTurns` override of built-ins. */
  readonly maxTurns?: number;
  /** Overrides by subagent name; win over the globals. */
  readonly perAgent?: Readonly<Record<string, SubagentOverride>>;
  /** Extra subagents by name; cannot replace a built-in. */
  readonly customAgents?: Readonly<Record<string, CustomSubagentInput>>;
}

/** Hyphen-case: lowercase letters and digits, single hyphens between. */
export const SUBAGENT_NAME_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

const CUSTOM_DEFAULT_DISALLOWED = ["task", "ask_clarification", "present_files"] as const;
const CUSTOM_DEFAULT_MAX_TURNS = 50;
const CUSTOM_DEFAULT_TIMEOUT_MS = 900_000;

function invalid(message: string, details: Record<string, unknown>): SubagentError {
  return new SubagentError("CONFIG_INVALID", message, { details });
}

/**
 * Checks a `maxTurns` / `timeoutMs` value.
 * @throws {@link SubagentError} `CONFIG_INVALID` when not an integer ≥ `min`.
 */
export function checkLimit(value: unknown, field: string, min: number, where: string): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "number" || !Number.isInteger(value) || value < min) {
    throw invalid(`${where}: ${field} must be an integer >= ${min}, got ${JSON.stringify(value)}`, {
      field,
      value,
      where,
    });
  }
  return value;
}

function checkString(value: unknown, field: string, where: string): string {
  if (typeof value !== "string" || value.trim() === "") {
    throw invalid(`${where}: ${field} must be a non-empty string`, { field, where });
  }
  return value;
}

function checkNameList(value: unknown, field: string, where: string): string[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || !value.every((v): v is string => typeof v === "string" && v !== "")) {
    throw invalid(`${where}: ${field} must be a list of tool names`, { field, where });
  }
  return [...value];
}

/**
 * Validates one override entry.
 * @throws {@link SubagentError} `CONFIG_INVALID`
 */
export function validateOverride(name: string, input: unknown): SubagentOverride {
  const where = `subagents.perAgent.${name}`;
  if (typeof input !== "object" || input === null) throw invalid(`${where} must be an object`, { name });
  const o = input as Record<string, unknown>;
  const timeoutMs = checkLimit(o["timeoutMs"], "timeoutMs", 1000, where);
  const maxTurns = checkLimit(o["maxTurns"], "maxTurns", 1, where);
  const model = o["model"] === undefined ? undefined : checkString(o["model"], "model", where);
  return {
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
    ...(maxTurns === undefined ? {} : { maxTurns }),
    ...(model === undefined ? {} : { model }),
  };
}

/**
 * Validates a custom subagent and fills in defaults. `task` is always denied.
 * @param name - the key in `customAgents`
 * @param input - the raw entry
 * @returns a frozen {@link SubagentConfig}
 * @throws {@link SubagentError} `CONFIG_INVALID` naming the field at fault
 */
export function validateCustomSubagent(name: string, input: unknown): SubagentConfig {
  const where = `subagents.customAgents.${name}`;
  if (!SUBAGENT_NAME_PATTERN.test(name)) {
    throw invalid(
      `Invalid subagent name ${JSON.stringify(name)}: use hyphen-case (lowercase letters, digits and single hyphens)`,
      { name },
    );
  }
  if (typeof input !== "object" || input === null) throw invalid(`${where} must be an object`, { name });
  const o = input as Record<string, unknown>;
  const description = checkString(o["description"], "description", where);
  const systemPrompt = checkString(o["systemPrompt"], "systemPrompt", where);
  const tools = checkNameList(o["tools"], "tools", where);
  const denied = checkNameList(o["disallowedTools"], "disallowedTools", where) ?? [...CUSTOM_DEFAULT_DISALLOWED];
  const model = o["model"] === undefined ? "inherit" : checkString(o["model"], "model", where);
  const maxTurns = checkLimit(o["maxTurns"], "maxTurns", 1, where) ?? CUSTOM_DEFAULT_MAX_TURNS;
  const timeoutMs = checkLimit(o["timeoutMs"], "timeoutMs", 1000, where) ?? CUSTOM_DEFAULT_TIMEOUT_MS;
  const disallowedTools = denied.includes("task") ? denied : ["task", ...denied];
  return Object.freeze({
    name,
    description,
    systemPrompt,
    ...(tools === undefined ? {} : { tools: Object.freeze(tools) }),
    disallowedTools: Object.freeze(disallowedTools),
    model,
    maxTurns,
    timeoutMs,
  });
}
