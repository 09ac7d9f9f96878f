/**
 * `FileAgentStore`: custom agents in DeerFlow's folder layout (§7), so a
 * DeerFlow data folder works unchanged:
 *
 * ```text
 * {dataDir}/SOUL.md                                  the default agent's SOUL.md
 * {dataDir}/users/{userId}/USER.md                   the user's profile
 * {dataDir}/users/{userId}/agents/{name}/config.yaml an agent (the folder counts only with config.yaml)
 * {dataDir}/users/{userId}/agents/{name}/SOUL.md
 * {dataDir}/agents/{name}/config.yaml                legacy shared layout: read, never written
 * ```
 *
 * Each file is replaced atomically (temp file, fsync, rename). A create puts
 * `config.yaml` in place with a hard link, which fails if another writer —
 * in this process or another — got there first, so two creators of one name
 * never both succeed; SOUL.md is written after it. Writes of one agent are
 * serialised in this process.
 */
import { promises as fs } from "node:fs";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { KeyedLock, settledTextFile, writeFileAtomic } from "@deerflow/kernel";
import { dump, load } from "js-yaml";
import { AgentError } from "../errors.js";
import { agentConfigDocument, normalizeAgentName, parseAgentConfig, type AgentConfig } from "./agent-config.js";
import type { AgentChange, AgentStore } from "./agent-store.js";
import { agentExists as exists, agentNotFound as notFound, legacyOnly } from "./store-errors.js";
import { checkUserId } from "./user-segment.js";

/** File names of the layout. */
export const AGENT_CONFIG_FILE = "config.yaml";
export const SOUL_FILE = "SOUL.md";
export const USER_PROFILE_FILE = "USER.md";

/** Largest `config.yaml` read (a config is a few hundred bytes; a huge one is refused, not parsed). */
const MAX_CONFIG_BYTES = 256 * 1024;

/** Options of {@link FileAgentStore}. */
export interface FileAgentStoreOptions {
  /** DeerFlow's base folder (the server's `storage.data_dir`). */
  readonly dataDir: string;
}

const isMissing = (err: unknown): boolean => (err as NodeJS.ErrnoException).code === "ENOENT";

async function readText(file: string): Promise<string | undefined> {
  try {
    return await fs.readFile(file, "utf8");
  } catch (err) {
    if (isMissing(err) || (err as NodeJS.ErrnoException).code === "ENOTDIR") return undefined;
    throw err;
  }
}

async function isFile(file: string): Promise<boolean> {
  try {
    return (await fs.stat(file)).isFile();
  } catch (err) {
    if (isMissing(err) || (err as NodeJS.ErrnoException).code === "ENOTDIR") return false;
    throw err;
  }
}

/** A stored SOUL.md or USER.md: `undefined` when absent or blank (DeerFlow strips and treats empty as unset). */
const present = (text: string | undefined): string | undefined =>
  text === undefined || text.trim() === "" ? undefined : text;

/** Custom agents in DeerFlow's folder layout. */
export class FileAgentStore implements AgentStore {
  readonly #dataDir: string;
  readonly #defaultSoul: () => Promise<string | undefined>;
  readonly #lock = new KeyedLock();

  /** @param options - the data folder */
  constructor(options: FileAgentStoreOptions) {
    this.#dataDir = path.resolve(options.dataDir);
    // Read on every run of the default agent: kept while SOUL.md (or, when missing, its folder) is unchanged.
    this.#defaultSoul = settledTextFile(path.join(this.#dataDir, SOUL_FILE));
  }

  #userDir(userId: string): string {
    return path.join(this.#dataDir, "users", checkUserId(userId));
  }

  #agentDir(userId: string, name: string): string {
    return path.join(this.#userDir(userId), "agents", name);
  }

  #legacyDir(name: string): string {
    return path.join(this.#dataDir, "agents", name);
  }

  async #readConfig(dir: string, name: string): Promise<AgentConfig | undefined> {
    const file = path.join(dir, AGENT_CONFIG_FILE);
    let handle: fs.FileHandle;
    try {
      handle = await fs.open(file, "r");
    } catch (err) {
      if (isMissing(err) || (err as NodeJS.ErrnoException).code === "ENOTDIR") return undefined;
      throw err;
    }
    let text: string;
    try {
      const { size } = await handle.stat();
      if (size > MAX_CONFIG_BYTES)
        throw new AgentError(
          "AGENT_CONFIG_INVALID",
          `Agent '${name}': config.yaml is larger than ${MAX_CONFIG_BYTES} bytes`,
          {
            details: { name, size },
          },
        );
      text = await handle.readFile("utf8");
    } finally {
      await handle.close();
    }
    let doc: unknown;
    try {
      doc = load(text);
    } catch (err) {
      throw new AgentError(
        "AGENT_CONFIG_INVALID",
        `Agent '${name}': config.yaml is not valid YAML: ${(err as Error).message}`,
        {
          details: { name },
          cause: err,
        },
      );
    }
    return parseAgentConfig(name, doc);
  }

  /** The folder the agent is read from: the user's, else the legacy one, else `undefined`. */
  async #resolve(userId: string, name: string): Promise<{ dir: string; legacy: boolean } | undefined> {
    const own = this.#agentDir(userId, name);
    if (await isFile(path.join(own, AGENT_CONFIG_FILE))) return { dir: own, legacy: false };
    const legacy = this.#legacyDir(name);
    if (await isFile(path.join(legacy, AGENT_CONFIG_FILE))) return { dir: legacy, legacy: true };
    return undefined;
  }

  async list(userId: string): Promise<AgentConfig[]> {
    const found = new Map<string, AgentConfig>();
    // Legacy first, so the user's own agent of the same name shadows it.
    for (const base of [path.join(this.#dataDir, "agents"), path.join(this.#userDir(userId), "agents")]) {
      let entries: string[];
      try {
        entries = await fs.readdir(base);
      } catch (err) {
        if (isMissing(err)) continue;
        throw err;
      }
      for (const entry of entries) {
        let name: string;
        try {
          name = normalizeAgentName(entry);
        } catch {
          continue; // not an agent folder (a stray file, an upper-case copy is read by its lowercase name)
        }
        if (name !== entry) continue;
        try {
          const config = await this.#readConfig(path.join(base, entry), name);
          if (config !== undefined) found.set(name, config);
        } catch (err) {
          // One broken config must not hide the others; `get` reports it.
          if (!AgentError.isInstance(err)) throw err;
        }
      }
    }
    return [...found.values()].sort((a, b) => a.name.localeCompare(b.name));
  }

  async get(userId: string, name: string): Promise<AgentConfig | undefined> {
    const n = normalizeAgentName(name);
    const where = await this.#resolve(userId, n);
    return where === undefined ? undefined : this.#readConfig(where.dir, n);
  }

  async getSoul(userId: string, name: string): Promise<string | undefined> {
    const n = normalizeAgentName(name);
    const where = await this.#resolve(userId, n);
    return where === undefined ? undefined : present(await readText(path.join(where.dir, SOUL_FILE)));
  }

  async exists(userId: string, name: string): Promise<boolean> {
    return (await this.#resolve(userId, normalizeAgentName(name))) !== undefined;
  }

  async create(userId: string, config: AgentConfig, soul: string): Promise<AgentConfig> {
    const name = normalizeAgentName(config.name);
    const stored = { ...config, name };
    return this.#lock.run(`${userId}\u0000${name}`, async () => {
      if ((await this.#resolve(userId, name)) !== undefined) throw exists(name);
      const dir = this.#agentDir(userId, name);
      await fs.mkdir(dir, { recursive: true });
      const target = path.join(dir, AGENT_CONFIG_FILE);
      const temp = path.join(dir, `.${AGENT_CONFIG_FILE}.${randomBytes(6).toString("hex")}.tmp`);
      await fs.writeFile(temp, dump(agentConfigDocument(stored)), { flag: "wx", mode: 0o644 });
      try {
        await fs.link(temp, target);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === "EEXIST") throw exists(name);
        throw err;
      } finally {
        await fs.rm(temp, { force: true });
      }
      await writeFileAtomic(path.join(dir, SOUL_FILE), soul);
      return stored;
    });
  }

  async update(
    userId: string,
    name: string,
    change: AgentChange,
    options: { readonly upsert?: boolean } = {},
  ): Promise<AgentConfig> {
    const n = normalizeAgentName(name);
    return this.#lock.run(`${userId}\u0000${n}`, async () => {
      const dir = this.#agentDir(userId, n);
      const ownConfig = await this.#readConfig(dir, n);
      if (ownConfig === undefined) {
        if (await isFile(path.join(this.#legacyDir(n), AGENT_CONFIG_FILE))) throw legacyOnly(n, "updating");
        if (options.upsert !== true) throw notFound(n);
      }
      const config = { ...(change.config ?? ownConfig ?? parseAgentConfig(n, null)), name: n };
      await fs.mkdir(dir, { recursive: true });
      // SOUL.md first: the agent appears (config.yaml) only once its SOUL.md is in place.
      if (change.soul !== undefined) await writeFileAtomic(path.join(dir, SOUL_FILE), change.soul);
      if (change.config !== undefined || ownConfig === undefined)
        await writeFileAtomic(path.join(dir, AGENT_CONFIG_FILE), dump(agentConfigDocument(config)));
      return config;
    });
  }

  async delete(userId: string, name: string): Promise<void> {
    const n = normalizeAgentName(name);
    await this.#lock.run(`${userId}\u0000${n}`, async () => {
      const dir = this.#agentDir(userId, n);
      if (!(await isFile(path.join(dir, AGENT_CONFIG_FILE)))) {
        if (await isFile(path.join(this.#legacyDir(n), AGENT_CONFIG_FILE))) throw legacyOnly(n, "deleting");
        let entries: string[] = [];
        try {
          entries = await fs.readdir(dir);
        } catch (err) {
          if (!isMissing(err)) throw err;
        }
        if (entries.length > 0)
          throw new AgentError(
            "AGENT_MEMORY_ONLY",
            `Directory for '${n}' contains memory data but is not a custom agent because config.yaml is missing; it was preserved.`,
            { details: { name: n } },
          );
        throw notFound(n);
      }
      // config.yaml first: from here on the folder is no agent, whatever the rest of the removal does.
      await fs.rm(path.join(dir, AGENT_CONFIG_FILE), { force: true });
      await fs.rm(dir, { recursive: true, force: true });
    });
  }

  async getDefaultSoul(): Promise<string | undefined> {
    return present(await this.#defaultSoul());
  }

  async setDefaultSoul(soul: string): Promise<void> {
    await fs.mkdir(this.#dataDir, { recursive: true });
    await writeFileAtomic(path.join(this.#dataDir, SOUL_FILE), soul);
  }

  async getUserProfile(userId: string): Promise<string | undefined> {
    return present(await readText(path.join(this.#userDir(userId), USER_PROFILE_FILE)));
  }

  async setUserProfile(userId: string, content: string): Promise<void> {
    const dir = this.#userDir(userId);
    await fs.mkdir(dir, { recursive: true });
    await writeFileAtomic(path.join(dir, USER_PROFILE_FILE), content);
  }
}
