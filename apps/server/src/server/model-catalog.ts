/**
 * The server's models as the gateway's `/api/models` shows them: the
 * configured `models:` entries in order, and whether token usage is recorded.
 * Per-role model rules (`authorization:`) are added by the gateway.
 */
import type { ModelCatalog } from "@deerflow/gateway";
import type { ServerConfig } from "../config/types.js";

/**
 * @param config - the loaded configuration
 * @returns the catalog handed to `createGateway({ models })`
 */
export function modelCatalogOf(config: ServerConfig): ModelCatalog {
  // The default model first: DeerFlow's list starts with it.
  const ordered = [...config.models].sort(
    (a, b) => Number(b.name === config.defaultModel) - Number(a.name === config.defaultModel),
  );
  const models = ordered.map((m) => ({
    name: m.name,
    model: m.model ?? m.name,
    ...(m.displayName === undefined ? {} : { displayName: m.displayName }),
    ...(m.description === undefined ? {} : { description: m.description }),
    supportsThinking: m.supportsThinking,
    supportsReasoningEffort: m.supportsReasoningEffort ?? false,
  }));
  return { models: () => models, tokenUsageEnabled: config.contextMiddleware?.tokenUsage?.enabled ?? true };
}
