// Example plugins for the DeerFlow server, in plain ESM JavaScript (no build step).
// Select them in config.yaml with `use: "<module>:<export>"`; see README.md.
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { AIMessage } from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";

/**
 * @typedef {{ ruleId: string, severity: "CRITICAL" | "HIGH" | "MEDIUM" | "LOW", file: string | null, line: number | null,
 *   message: string, remediation: string, evidence: string | null }} Finding
 * @typedef {{ findings: Finding[], blocked: boolean, scannerErrors: string[] }} ScanReport
 */

/**
 * A skill security scanner (the `SkillScanner` interface of @deerflow/skills):
 * blocks any skill whose text files contain one of the configured keywords.
 * Used for `skill_manage` writes (and installs) when listed in `skills.scanners`.
 */
export class KeywordBlockScanner {
  /** @param {{ keywords?: string[] }} [options] */
  constructor(options = {}) {
    /** Scanner id shown in reports. */
    this.id = "keyword-block";
    /** @type {string[]} */
    this.keywords = options.keywords ?? ["FORBIDDEN-EXAMPLE"];
  }

  /**
   * @param {string} dir - the skill folder to scan
   * @returns {Promise<ScanReport>}
   */
  async scanDirectory(dir) {
    /** @type {Finding[]} */
    const findings = [];
    for (const file of await listFiles(dir)) {
      const text = await readFile(path.join(dir, file), "utf8").catch(() => "");
      text.split("\n").forEach((line, i) => {
        for (const keyword of this.keywords) {
          if (!line.includes(keyword)) continue;
          findings.push({
            ruleId: "example-keyword",
            severity: "CRITICAL",
            file,
            line: i + 1,
            message: `Banned keyword "${keyword}"`,
            remediation: "Remove the keyword.",
            evidence: keyword,
          });
        }
      });
    }
    return { findings, blocked: findings.length > 0, scannerErrors: [] };
  }
}

/** @param {string} dir @param {string} [prefix] @returns {Promise<string[]>} relative paths of regular files */
async function listFiles(dir, prefix = "") {
  const out = [];
  for (const entry of await readdir(path.join(dir, prefix), { withFileTypes: true })) {
    const rel = prefix === "" ? entry.name : `${prefix}/${entry.name}`;
    if (entry.isDirectory()) out.push(...(await listFiles(dir, rel)));
    else if (entry.isFile()) out.push(rel);
  }
  return out.sort();
}

/** A chat model that echoes the last user message: enough to prove a model plugin is in use. */
class EchoChatModel extends BaseChatModel {
  /** @param {{ prefix?: string }} fields */
  constructor(fields = {}) {
    super({});
    this.prefix = fields.prefix ?? "Echo";
  }

  _llmType() {
    return "example-echo";
  }

  /** This model never calls tools, so binding them changes nothing. */
  bindTools() {
    return this;
  }

  /** @param {import("@langchain/core/messages").BaseMessage[]} messages */
  async _generate(messages) {
    const human = [...messages].reverse().find((m) => m.getType() === "human");
    const text = `${this.prefix}: ${typeof human?.content === "string" ? human.content : ""}`;
    return { generations: [{ text, message: new AIMessage(text) }] };
  }
}

/**
 * Chat model factory for `models[].use`. The server calls it with the entry's
 * fields (`model`, `apiKey`, `temperature`...) and its `options` spread on top.
 *
 * @param {{ prefix?: string }} input
 * @returns {EchoChatModel}
 */
export function createEchoChatModel(input = {}) {
  return new EchoChatModel({ ...(input.prefix === undefined ? {} : { prefix: input.prefix }) });
}

/**
 * A guardrail provider (the `GuardrailProvider` contract of @deerflow/agent)
 * for `guardrails.provider.use`: denies `bash` commands that contain one of the
 * configured words (`guardrails.provider.config.blocked_words`); every other
 * call is allowed. The denied call becomes an error result the model reads.
 */
export class CommandWordGuardrail {
  name = "command-words";

  /** @param {{ blocked_words?: string[] }} config - `guardrails.provider.config` as written */
  constructor(config = {}) {
    this.words = config.blocked_words ?? [];
  }

  /**
   * @param {{ toolName: string, toolInput: Record<string, unknown> }} request - one tool call
   * @returns {{ allow: boolean, reasons?: { code: string, message?: string }[] }}
   */
  evaluate(request) {
    const command = request.toolName === "bash" ? String(request.toolInput.command ?? "") : "";
    const word = this.words.find((w) => command.includes(w));
    if (word === undefined) return { allow: true };
    return {
      allow: false,
      reasons: [{ code: "example.command_word", message: `commands containing '${word}' are not allowed` }],
    };
  }
}

/**
 * An authorization provider (the `AuthorizationProvider` contract of
 * @deerflow/gateway) for `authorization.provider.use`: decides by user rather
 * than by role, which the built-in RBAC cannot. Users in
 * `authorization.provider.config.read_only_users` may only read threads and
 * runs, use no tools and no model but the first of `models`; every other
 * authenticated user may use everything. Admins always may. Unknown roles
 * throw (the server then denies, `fail_closed`).
 */
export class ReadOnlyUsersAuthorization {
  name = "read-only-users";

  /** @param {{ read_only_users?: string[], models?: string[] }} config - `authorization.provider.config` as written */
  constructor(config = {}) {
    this.readOnly = new Set(config.read_only_users ?? []);
    this.models = config.models ?? [];
  }

  /**
   * @param {{ role: string, userId?: string }} subject
   * @param {string} what - a short description, for the denial reason
   * @param {boolean} allowedForReadOnly
   */
  #decide(subject, what, allowedForReadOnly) {
    if (subject.role !== "admin" && subject.role !== "user") throw new Error(`Unknown role '${subject.role}'`);
    if (subject.role === "admin" || !this.readOnly.has(subject.userId ?? "") || allowedForReadOnly)
      return { allow: true, reasons: [{ code: "example.allowed" }] };
    return {
      allow: false,
      reasons: [{ code: "example.read_only", message: `user '${subject.userId}' is read-only: ${what}` }],
    };
  }

  /** @param {{ role: string, userId?: string }} subject @param {string} permission - e.g. `threads:read` */
  allowsRoute(subject, permission) {
    return this.#decide(subject, permission, permission === "threads:read" || permission === "runs:read");
  }

  /** @param {{ role: string, userId?: string }} subject @param {string} toolName */
  allowsTool(subject, toolName) {
    return this.#decide(subject, `tool ${toolName}`, false);
  }

  /** @param {{ role: string, userId?: string }} subject @param {string} modelName */
  allowsModel(subject, modelName) {
    return this.#decide(subject, `model ${modelName}`, modelName === this.models[0]);
  }
}

/**
 * A plugin tool (`tools: [{ name, group, use }]` in config.yaml): counts the
 * words and characters of a text. A factory gets the entry's other keys as
 * options (snake_case, as written) plus `logger`; it may also export a ready
 * tool instead. Check a tool with `pluginToolConformance` from
 * `@deerflow/tools/testing`.
 *
 * @param {{ max_chars?: number }} [options] - longer texts are refused
 * @returns {import("@langchain/core/tools").StructuredToolInterface}
 */
export function createWordCountTool(options = {}) {
  const maxChars = options.max_chars ?? 100_000;
  return tool(
    async ({ text }) => {
      if (text.length > maxChars) return `Error: the text is longer than ${maxChars} characters`;
      const words = text.trim() === "" ? 0 : text.trim().split(/\s+/).length;
      return JSON.stringify({ words, characters: text.length });
    },
    {
      name: "word_count",
      description: "Count the words and characters of a text.",
      schema: {
        type: "object",
        properties: { text: { type: "string", description: "The text to count" } },
        required: ["text"],
      },
    },
  );
}

/**
 * A memory backend plugin (`memory.manager_class` in config.yaml, DeerFlow's
 * dotted class path): memory kept by a remote, mem0-style service through
 * `HttpMemoryBackend` of @deerflow/memory (its TSDoc lists the service's API).
 * The factory gets the `backend_config` keys that are not DeerMem's (snake_case,
 * as written) plus `logger`. Check a backend with `memoryBackendConformance`
 * from `@deerflow/memory/testing`.
 *
 * @param {{ base_url: string, api_key?: string, timeout_seconds?: number }} options
 * @returns {Promise<import("@deerflow/memory").MemoryBackend>}
 */
export async function createRemoteMemoryBackend(options) {
  if (typeof options?.base_url !== "string" || options.base_url === "")
    throw new Error("memory.backend_config.base_url is required (the memory service's URL)");
  // Imported on use: the other plugins of this file need no @deerflow/memory.
  const { HttpMemoryBackend } = await import("@deerflow/memory");
  return new HttpMemoryBackend({
    baseUrl: options.base_url,
    ...(options.api_key === undefined ? {} : { apiKey: options.api_key }),
    ...(options.timeout_seconds === undefined ? {} : { timeoutMs: options.timeout_seconds * 1000 }),
  });
}
