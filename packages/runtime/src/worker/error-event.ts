/**
 * How a run's failures read: as text in its outcome and logs, and as the
 * payload of its SSE `error` event.
 */

/** A failure's text: an `Error`'s message, a string as is, anything else as JSON. */
export function errorMessage(err: unknown): string {
  if (err instanceof Error) return err.message;
  if (typeof err === "string") return err;
  try {
    return JSON.stringify(err) ?? String(err);
  } catch {
    return String(err);
  }
}

/** SSE `error` payload: `error` is the class name (LangGraph JS API), `name` the same (DeerFlow). */
export function errorEventData(err: unknown): Record<string, unknown> {
  const name = err instanceof Error ? err.name || "Error" : "Error";
  const data: Record<string, unknown> = { error: name, name, message: errorMessage(err) };
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code === "string") data["code"] = code;
  return data;
}
