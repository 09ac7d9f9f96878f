/**
 * The signed-in user's custom agents (DeerFlow's `/api/agents`): typed calls
 * and the agent's wire shape. The server answers 403 with its own text when
 * `agents_api.enabled` is off; pages show that text.
 */
import { apiJson } from "./api";

/** `model_settings` of an agent (extra keys are refused by the server). */
interface ModelSettings {
  readonly temperature?: number | null;
  readonly max_tokens?: number | null;
}

/** An agent as `GET /api/agents` lists it (`soul` only from `GET /api/agents/:name`). */
export interface Agent {
  readonly name: string;
  readonly description: string;
  readonly model: string | null;
  /** `null`: every tool group. */
  readonly tool_groups: readonly string[] | null;
  /** `null`: every enabled skill; `[]`: none. */
  readonly skills: readonly string[] | null;
  readonly model_settings: ModelSettings | null;
  readonly thinking_enabled: boolean | null;
  readonly reasoning_effort: "low" | "medium" | "high" | null;
  readonly soul?: string | null;
}

/** The body of `POST /api/agents` and `PUT /api/agents/:name`. */
export type AgentBody = Omit<Agent, "soul"> & { readonly soul: string };

const path = (name: string) => `/agents/${encodeURIComponent(name)}`;

/** `GET /api/agents`. */
export async function listAgents(): Promise<Agent[]> {
  return (await apiJson<{ agents: Agent[] }>("/agents")).agents;
}

/** `GET /api/agents/:name` (with its SOUL). */
export function getAgent(name: string): Promise<Agent> {
  return apiJson<Agent>(path(name));
}

/** `GET /api/agents/check?name=`: whether the name is free. */
export async function isNameAvailable(name: string): Promise<boolean> {
  return (await apiJson<{ available: boolean }>(`/agents/check?name=${encodeURIComponent(name)}`)).available;
}

/** `POST /api/agents` (201; 409 taken, 422 bad name or model). */
export function createAgent(body: AgentBody): Promise<Agent> {
  return apiJson<Agent>("/agents", { method: "POST", json: body });
}

/** `PUT /api/agents/:name`. */
export function updateAgent(name: string, body: Omit<AgentBody, "name">): Promise<Agent> {
  return apiJson<Agent>(path(name), { method: "PUT", json: body });
}

/** `DELETE /api/agents/:name` (204). */
export async function deleteAgent(name: string): Promise<void> {
  await apiJson(path(name), { method: "DELETE" });
}

/** `GET /api/user-profile`: the user's USER.md (`null` when none). */
export async function getUserProfile(): Promise<string | null> {
  return (await apiJson<{ content: string | null }>("/user-profile")).content;
}

/** `PUT /api/user-profile`: replaces USER.md (blank removes it); the server answers what it kept. */
export async function setUserProfile(content: string): Promise<string | null> {
  return (await apiJson<{ content: string | null }>("/user-profile", { method: "PUT", json: { content } })).content;
}
