import fs from "node:fs/promises";
import path from "node:path";
import { Ajv } from "ajv";
import { SkillsError } from "../errors.js";
import { silentLogger, type Logger } from "../logger.js";
import { KeyedLock, writeFileAtomic } from "@deerflow/kernel";

/**
 * JSON Schema of the parts of `extensions_config.json` this package reads:
 * `skills` is an object of per-skill objects whose `enabled` is a boolean.
 * Everything else (`mcpServers`, `mcpInterceptors`, extra per-skill keys) is
 * allowed and preserved on rewrite.
 */
export const EXTENSIONS_CONFIG_SCHEMA = {
  type: "object",
  properties: {
    skills: {
      type: "object",
      additionalProperties: {
        type: "object",
        properties: { enabled: { type: "boolean" } },
      },
    },
  },
} as const;

/** One read of `extensions_config.json`. */
export interface ExtensionsConfigSnapshot {
  /** False when the file does not exist (everything is enabled). */
  readonly exists: boolean;
  /** The whole document, unknown keys included. */
  readonly data: Readonly<Record<string, unknown>>;
  /** Explicit `skills.<name>.enabled` values; a missing name means enabled. */
  readonly skillStates: ReadonlyMap<string, boolean>;
}

/**
 * Whether `name` is enabled in `snapshot`. The key is the bare skill name, so
 * a public and a custom skill of the same name share one entry (DeerFlow).
 *
 * @returns The explicit value, or `true` when there is none.
 */
export function isSkillEnabled(snapshot: ExtensionsConfigSnapshot, name: string): boolean {
  return snapshot.skillStates.get(name) ?? true;
}

const ajv = new Ajv({ allErrors: true, strict: true });
const validateShape = ajv.compile(EXTENSIONS_CONFIG_SCHEMA);
const EMPTY: ExtensionsConfigSnapshot = Object.freeze({
  exists: false,
  data: Object.freeze({}),
  skillStates: new Map<string, boolean>(),
});

/**
 * Parses the text of an extensions config. Whitespace-only text counts as an
 * empty document.
 *
 * @param text - The file content.
 * @param label - How to name the file in messages (never a host path).
 * @returns The snapshot (`exists: true`).
 * @throws SkillsError `CONFIG_INVALID` naming the JSON parse error or the first schema violations.
 */
export function parseExtensionsConfig(text: string, label = "extensions_config.json"): ExtensionsConfigSnapshot {
  let data: unknown = {};
  if (text.trim() !== "") {
    try {
      data = JSON.parse(text);
    } catch (err) {
      throw new SkillsError("CONFIG_INVALID", `${label} is not valid JSON: ${(err as Error).message}`, { cause: err });
    }
  }
  if (!validateShape(data)) {
    const detail = ajv.errorsText(validateShape.errors, { dataVar: label, separator: "; " });
    throw new SkillsError("CONFIG_INVALID", `${label} has an invalid shape: ${detail}`, {
      details: { errors: validateShape.errors ?? [] },
    });
  }
  const doc = data as Record<string, unknown>;
  const skillStates = new Map<string, boolean>();
  const skills = doc["skills"];
  if (skills !== undefined) {
    for (const [name, entry] of Object.entries(skills as Record<string, Record<string, unknown>>)) {
      const enabled = entry["enabled"];
      if (typeof enabled === "boolean") skillStates.set(name, enabled);
    }
  }
  return { exists: true, data: doc, skillStates };
}

/** Options of {@link ExtensionsConfigStore}. */
export interface ExtensionsConfigStoreOptions {
  readonly logger?: Logger;
}

// One lock table for the whole process, so two stores on the same file still
// serialise their read-modify-write cycles.
const fileLocks = new KeyedLock();

/**
 * The `extensions_config.json` store: the global enabled state of skills,
 * living next to other sections (MCP servers...) that this package must keep.
 *
 * @example
 * ```ts
 * const store = new ExtensionsConfigStore("/srv/deerflow/extensions_config.json");
 * await store.setSkillEnabled("deep-research", false);
 * isSkillEnabled(await store.read(), "deep-research"); // false
 * ```
 */
export class ExtensionsConfigStore {
  /** Absolute path of the config file. */
  readonly filePath: string;
  readonly #logger: Logger;
  readonly #label: string;

  /**
   * @param filePath - Where the file lives (it may not exist yet).
   * @param options - A logger for the lenient read.
   */
  constructor(filePath: string, options: ExtensionsConfigStoreOptions = {}) {
    this.filePath = path.resolve(filePath);
    this.#logger = options.logger ?? silentLogger;
    this.#label = path.basename(this.filePath);
  }

  /**
   * Reads the file strictly. A missing file means everything is enabled.
   *
   * @throws SkillsError `CONFIG_INVALID` for malformed JSON or a wrong shape; Node's error for other I/O failures.
   */
  async read(): Promise<ExtensionsConfigSnapshot> {
    let text: string;
    try {
      text = await fs.readFile(this.filePath, "utf8");
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return EMPTY;
      throw err;
    }
    return parseExtensionsConfig(text, this.#label);
  }

  /**
   * Reads the file for loading skills: an invalid file is logged and treated
   * as empty (everything enabled) rather than taking the catalogue down.
   *
   * @throws Node's error for I/O failures other than a missing file.
   */
  async readLenient(): Promise<ExtensionsConfigSnapshot> {
    try {
      return await this.read();
    } catch (err) {
      if (!SkillsError.isInstance(err) || err.code !== "CONFIG_INVALID") throw err;
      this.#logger.warn(
        { file: this.#label, error: err.message },
        "Ignoring invalid extensions config; all skills count as enabled",
      );
      return EMPTY;
    }
  }

  /**
   * Sets `skills.<name>.enabled`. The file is re-read from disk under an
   * in-process lock per path, so concurrent toggles never lose each other's
   * updates; every other key is kept; the write is atomic (see
   * {@link writeFileAtomic}). The file and its directory are created if missing.
   *
   * @param name - The bare skill name.
   * @param enabled - The new state.
   * @returns The snapshot that was written.
   * @throws SkillsError `INVALID_NAME` for an empty name; `CONFIG_INVALID` when the current file is malformed (it is left untouched).
   */
  async setSkillEnabled(name: string, enabled: boolean): Promise<ExtensionsConfigSnapshot> {
    if (typeof name !== "string" || name.trim() === "")
      throw new SkillsError("INVALID_NAME", "Skill name cannot be empty");
    return fileLocks.run(this.filePath, async () => {
      const current = await this.read();
      const data: Record<string, unknown> = { ...current.data };
      const skills: Record<string, unknown> = { ...(data["skills"] as Record<string, unknown> | undefined) };
      const previous = Object.hasOwn(skills, name) ? (skills[name] as Record<string, unknown>) : {};
      // defineProperty: a name like "__proto__" must become a key, not a prototype.
      Object.defineProperty(skills, name, {
        value: { ...previous, enabled },
        enumerable: true,
        writable: true,
        configurable: true,
      });
      data["skills"] = skills;
      await fs.mkdir(path.dirname(this.filePath), { recursive: true });
      await writeFileAtomic(this.filePath, `${JSON.stringify(data, null, 2)}\n`);
      return parseExtensionsConfig(JSON.stringify(data), this.#label);
    });
  }
}
