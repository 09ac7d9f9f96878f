import { silentLogger, type Logger } from "../logger.js";

/**
 * A logger for one run: every record starts with `fields` (the run's ids), and
 * it never throws, because logging must not change how a run ends.
 */
export function safeLogger(logger: Logger | undefined, fields: Record<string, unknown> = {}): Logger {
  if (!logger) return silentLogger;
  const guard =
    (level: keyof Logger) =>
    (obj: Record<string, unknown>, msg: string): void => {
      try {
        logger[level]({ ...fields, ...obj }, msg);
      } catch {
        // ignored on purpose
      }
    };
  return { debug: guard("debug"), info: guard("info"), warn: guard("warn"), error: guard("error") };
}
