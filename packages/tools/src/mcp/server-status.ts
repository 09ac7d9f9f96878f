/**
 * What the toolset knows about each configured server (shown by the server's
 * `/api/mcp/status` and the console's MCP page).
 */
import type { McpTransportType } from "./server-spec.js";

/** One tool of a server, as the model sees it. */
export interface McpToolSummary {
  /** The name offered to the model (`<server>_<tool>` by default). */
  readonly name: string;
  readonly description: string;
}

/** The state of one server after the last discovery. */
export interface McpServerStatus {
  readonly name: string;
  readonly enabled: boolean;
  readonly type: McpTransportType;
  /**
   * `connected`: discovery succeeded; `failed`: skipped (see `error`); `disabled`: `enabled: false`;
   * `pending`: still starting (its tools join when it answers).
   */
  readonly state: "connected" | "failed" | "disabled" | "pending";
  /** Why discovery failed (only when `failed`). */
  readonly error?: string;
  readonly toolCount: number;
  readonly tools: readonly McpToolSummary[];
}
