/**
 * Shapes of the DeerFlow API answers the console reads that are not the
 * gateway's: the skills and thread-files answers are `@deerflow/gateway`'s wire
 * types (`import type` where they are used), threads and runs the LangGraph SDK's.
 */

/**
 * `GET /api/info`: the server's shape (`ConsoleInfo` of `apps/server`), kept
 * here because the server depends on this console, not the other way round.
 */
export interface ServerInfo {
  readonly version: string;
  readonly demoModel: boolean;
  readonly defaultModel: string;
  readonly authRequired: boolean;
  /**
   * True when the server has accounts (`auth.enabled`): the console signs in with
   * email and password (session cookie) instead of asking for an API key. Absent
   * on servers from before accounts: API-key mode.
   */
  readonly accounts?: boolean;
}
