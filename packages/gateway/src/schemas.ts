/**
 * JSON Schema pieces shared by route plugins (the LangGraph routes included).
 */

/** DeerFlow's thread id rule: 1–64 ASCII letters, digits, `_` or `-` (UUIDs pass). */
export const THREAD_ID_PATTERN = "^[A-Za-z0-9_-]{1,64}$";

/** The `thread_id` string schema. */
export const threadIdSchema = {
  type: "string",
  pattern: THREAD_ID_PATTERN,
  description: "Thread id: 1-64 letters, digits, '_' or '-'.",
} as const;

/** Params of routes under `/threads/:thread_id`. */
export const threadParamsSchema = {
  type: "object",
  required: ["thread_id"],
  properties: { thread_id: threadIdSchema },
} as const;

/** `{"success": true, "message": "..."}`. */
export const successMessageSchema = {
  type: "object",
  required: ["success"],
  properties: { success: { type: "boolean" }, message: { type: "string" } },
} as const;
