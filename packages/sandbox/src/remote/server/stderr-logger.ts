/**
 * The server process's logger: one JSON object per line on stderr (stdout
 * carries only the `listening on` line).
 */
import type { Logger } from "../../logger.js";
import type { LogLevel } from "./server-config.js";

const RANK: Readonly<Record<LogLevel, number>> = { debug: 10, info: 20, warn: 30, error: 40 };

/**
 * @param level - Lowest level written.
 * @param write - Sink; default `process.stderr`.
 * @returns A {@link Logger}.
 */
export function createStderrLogger(
  level: LogLevel,
  write: (line: string) => void = (line) => process.stderr.write(line),
): Logger {
  const at =
    (name: LogLevel) =>
    (fields: Record<string, unknown>, msg: string): void => {
      if (RANK[name] < RANK[level]) return;
      write(`${JSON.stringify({ ...fields, level: name, time: new Date().toISOString(), msg })}\n`);
    };
  return { debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") };
}
