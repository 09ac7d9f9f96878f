/**
 * A user's own enabled state of non-public skills: DeerFlow's
 * `{base}/users/{uid}/skills/_skill_states.json`, `{"<name>": {"enabled": bool}}`.
 */
import fs from "node:fs/promises";
import path from "node:path";
import { KeyedLock, writeFileAtomic } from "@deerflow/kernel";
import { SkillsError } from "../errors.js";
import { silentLogger, type Logger } from "../logger.js";

/** DeerFlow's file name of the per-user state. */
export const SKILL_STATES_FILE_NAME = "_skill_states.json";

// One lock table for the process: two instances on one file still serialise their writes.
const fileLocks = new KeyedLock();

/**
 * The per-user state file. A missing name means enabled. Reading is lenient
 * as DeerFlow's loader is: an unreadable or corrupt file counts as `{}` (and
 * is logged); writing re-reads the file under a lock and replaces it atomically,
 * so a failed write leaves the old file intact.
 *
 * @example
 * ```ts
 * const states = new SkillStatesFile("/var/lib/deerflow/users/alice/skills/_skill_states.json");
 * await states.setEnabled("my-skill", false);
 * (await states.read()).get("my-skill"); // false
 * ```
 */
export class SkillStatesFile {
  /** Absolute path of the file. */
  readonly filePath: string;
  readonly #logger: Logger;

  /** @param filePath - where the file lives (it may not exist yet). @param options - a logger. */
  constructor(filePath: string, options: { readonly logger?: Logger } = {}) {
    this.filePath = path.resolve(filePath);
    this.#logger = options.logger ?? silentLogger;
  }

  /** @returns the explicit states; `{}` for a missing, unreadable or corrupt file. */
  async read(): Promise<ReadonlyMap<string, boolean>> {
    let text: string;
    try {
      text = await fs.readFile(this.filePath, "utf8");
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== "ENOENT") this.#logger.warn({ code }, "Skill states file unreadable; treating it as empty");
      return new Map();
    }
    const parsed = parseStates(text);
    if (parsed === undefined) this.#logger.warn({}, "Skill states file is not valid; treating it as empty");
    return parsed ?? new Map();
  }

  /**
   * Sets one skill's state, keeping the others (a corrupt file is replaced by the new entry alone).
   *
   * @param name - the bare skill name.
   * @param enabled - the new state.
   * @throws SkillsError `INVALID_NAME` for an empty name; Node's error when the file cannot be written.
   */
  async setEnabled(name: string, enabled: boolean): Promise<void> {
    if (typeof name !== "string" || name.trim() === "")
      throw new SkillsError("INVALID_NAME", "Skill name cannot be empty");
    await fileLocks.run(this.filePath, async () => {
      const current = await this.read();
      const data: Record<string, { enabled: boolean }> = {};
      // defineProperty: a name like "__proto__" must become a key, not a prototype.
      const put = (key: string, value: boolean): void => {
        Object.defineProperty(data, key, {
          value: { enabled: value },
          enumerable: true,
          writable: true,
          configurable: true,
        });
      };
      for (const [key, value] of current) put(key, value);
      put(name, enabled);
      await fs.mkdir(path.dirname(this.filePath), { recursive: true });
      await writeFileAtomic(this.filePath, `${JSON.stringify(data, null, 2)}\n`);
    });
  }
}

/** @returns the `enabled` booleans of a well-formed document, else undefined. */
function parseStates(text: string): Map<string, boolean> | undefined {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof doc !== "object" || doc === null || Array.isArray(doc)) return undefined;
  const states = new Map<string, boolean>();
  for (const [name, entry] of Object.entries(doc)) {
    const enabled: unknown = (entry as { enabled?: unknown } | null)?.enabled;
    // An entry without a boolean says nothing: the skill keeps the default (enabled).
    if (typeof enabled === "boolean") states.set(name, enabled);
  }
  return states;
}
