/** The store errors with DeerFlow's texts (the HTTP routes answer with them). */
import { AgentError } from "../errors.js";

/** @returns `AGENT_EXISTS`: "Agent '<n>' already exists" */
export function agentExists(name: string): AgentError {
  return new AgentError("AGENT_EXISTS", `Agent '${name}' already exists`, { details: { name } });
}

/** @returns `AGENT_NOT_FOUND`: "Agent '<n>' not found" */
export function agentNotFound(name: string): AgentError {
  return new AgentError("AGENT_NOT_FOUND", `Agent '${name}' not found`, { details: { name } });
}

/** @returns `AGENT_LEGACY_ONLY` for an agent only the read-only legacy layout has */
export function legacyOnly(name: string, action: "updating" | "deleting"): AgentError {
  return new AgentError(
    "AGENT_LEGACY_ONLY",
    `Agent '${name}' only exists in the legacy shared layout and is not scoped to a user. Run scripts/migrate_user_isolation.py to move legacy agents into the per-user layout before ${action}.`,
    { details: { name } },
  );
}
