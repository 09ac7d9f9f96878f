/**
 * A {@link Logger} that keeps every line, for tests asserting what a component logs.
 */
import type { Logger } from "../../src/logger.js";

/** One logged line. */
export interface LoggedLine {
  readonly level: "debug" | "info" | "warn" | "error";
  readonly msg: string;
  readonly obj: Record<string, unknown>;
}

/** A logger recording into `lines`. */
export function capturingLogger(): Logger & { readonly lines: LoggedLine[] } {
  const lines: LoggedLine[] = [];
  const at = (level: LoggedLine["level"]) => (obj: Record<string, unknown>, msg: string) =>
    void lines.push({ level, msg, obj });
  return { lines, debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") };
}
