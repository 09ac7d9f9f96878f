/**
 * The `skill_manage` tool: the agent's CRUD over its custom skills, through a
 * {@link CustomSkillStore}, with DeerFlow's exact result and error texts.
 * Expected failures come back as text starting with `Error:` (the model reads
 * them in the ToolMessage); the tool itself never throws for them.
 */
import { tool, type ToolRunnableConfig } from "@langchain/core/tools";
import { SkillsError } from "../errors.js";
import { silentLogger, type Logger } from "../logger.js";
import type { CustomSkillStore } from "../custom/custom-skill-store.js";
import { EDITABILITY_MESSAGES } from "../custom/editability.js";
import type { MutationContext } from "../custom/mutation-context.js";
import { normalizeSkillName } from "../custom/skill-name.js";
import { toWireFinding } from "../scanning/static/findings.js";
import type { Finding } from "../scanning/types.js";
import {
  SKILL_MANAGE_DESCRIPTION,
  SKILL_MANAGE_SCHEMA,
  SKILL_MANAGE_TOOL_NAME,
  type SkillManageInput,
} from "./skill-manage-schema.js";

/** Options of {@link createSkillManageTool}. */
export interface SkillManageToolOptions {
  /** Thread id for history records; defaults to `context.thread_id`, then `configurable.thread_id` of the run. */
  readonly getThreadId?: (config: ToolRunnableConfig | undefined) => string | undefined;
  /** Logs unexpected failures (their text is not shown to the model). */
  readonly logger?: Logger;
}

/** The store of `skill_manage`: one, or one per call (chosen from the call's config, e.g. its user). */
export type SkillManageStoreInput =
  | CustomSkillStore
  | ((config: ToolRunnableConfig | undefined) => CustomSkillStore | Promise<CustomSkillStore>);

/** The `skill_manage` tool instance type. */
export type SkillManageTool = ReturnType<typeof createSkillManageTool>;

/** Longest error detail handed back to the model (DeerFlow's tool-error cap). */
export const MAX_TOOL_ERROR_CHARS = 500;

function inputError(message: string): SkillsError {
  return new SkillsError("SKILL_INVALID", message, { details: { reason: "tool-input" } });
}

function required<T>(value: T | null | undefined, message: string): T {
  if (value === null || value === undefined) throw inputError(message);
  return value;
}

function optionalValue<T>(value: T | null | undefined): T | undefined {
  return value === null ? undefined : value;
}

/**
 * Runs one `skill_manage` call against the store.
 *
 * @param store - the custom skill store.
 * @param input - the call's arguments, as the model sent them.
 * @param ctx - author and thread for history.
 * @returns DeerFlow's success text, e.g. `"Created custom skill 'my-skill'."`.
 * @throws SkillsError with DeerFlow's message (`SKILL_INVALID` for missing arguments or an unknown action);
 *   {@link createSkillManageTool} turns it into `Error: …` text.
 */
export async function runSkillManage(
  store: CustomSkillStore,
  input: SkillManageInput,
  ctx: MutationContext,
): Promise<string> {
  const name = normalizeSkillName(input.name);
  const content = optionalValue(input.content);
  switch (input.action) {
    case "create": {
      if (await store.exists(name))
        throw new SkillsError("SKILL_ALREADY_EXISTS", EDITABILITY_MESSAGES.alreadyExists(name));
      await store.create(name, required(content, "content is required for create."), ctx);
      return `Created custom skill '${name}'.`;
    }
    case "edit": {
      await store.ensureEditable(name);
      await store.update(name, required(content, "content is required for edit."), ctx);
      return `Updated custom skill '${name}'.`;
    }
    case "patch": {
      await store.ensureEditable(name);
      const find = optionalValue(input.find);
      const replace = optionalValue(input.replace);
      if (find === undefined || find === "" || replace === undefined)
        throw inputError("find and replace are required for patch.");
      const result = await store.patch(name, find, replace, optionalValue(input.expected_count), ctx);
      return `Patched custom skill '${name}' (${result.replacements} replacement(s) applied, ${result.matches} match(es) found).`;
    }
    case "delete": {
      await store.delete(name, ctx);
      return `Deleted custom skill '${name}'.`;
    }
    case "write_file": {
      await store.ensureEditable(name);
      const path = optionalValue(input.path);
      if (path === undefined || content === undefined)
        throw inputError("path and content are required for write_file.");
      await store.writeFile(name, path, content, ctx);
      return `Wrote '${path}' for custom skill '${name}'.`;
    }
    case "remove_file": {
      await store.ensureEditable(name);
      const path = required(optionalValue(input.path), "path is required for remove_file.");
      await store.removeFile(name, path, ctx);
      return `Removed '${path}' from custom skill '${name}'.`;
    }
    default: {
      if (await store.isPublic(name))
        throw new SkillsError("SKILL_READ_ONLY", EDITABILITY_MESSAGES.readOnlyAction(name));
      throw inputError(`Unsupported action '${input.action}'.`);
    }
  }
}

/** Narrows the validated wire input; a wrong type is treated like a missing value. */
function toInput(raw: unknown): SkillManageInput {
  const r = (typeof raw === "object" && raw !== null ? raw : {}) as Record<string, unknown>;
  const text = (key: string): string | null => (typeof r[key] === "string" ? r[key] : null);
  const count = r["expected_count"];
  return {
    action: text("action") ?? "",
    name: text("name") ?? "",
    content: text("content"),
    path: text("path"),
    find: text("find"),
    replace: text("replace"),
    expected_count: typeof count === "number" && Number.isInteger(count) ? count : null,
  };
}

function defaultThreadId(config: ToolRunnableConfig | undefined): string | undefined {
  const fromContext: unknown = (config?.context as Record<string, unknown> | undefined)?.["thread_id"];
  if (typeof fromContext === "string" && fromContext !== "") return fromContext;
  const fromConfigurable: unknown = config?.configurable?.["thread_id"];
  return typeof fromConfigurable === "string" && fromConfigurable !== "" ? fromConfigurable : undefined;
}

/** `json.dumps` output (Python's default `", "` / `": "` separators), for DeerFlow's Findings suffix. */
function pythonJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(pythonJson).join(", ")}]`;
  if (value !== null && typeof value === "object") {
    return `{${Object.entries(value)
      .map(([k, v]) => `${JSON.stringify(k)}: ${pythonJson(v)}`)
      .join(", ")}}`;
  }
  return JSON.stringify(value ?? null);
}

/** DeerFlow's tool appends ` Findings: {"skill_name": …, "findings": […]}` to a static block. */
function staticBlockText(err: SkillsError): string {
  const findings = err.details?.["findings"];
  if (
    err.code !== "SECURITY_BLOCKED" ||
    !err.message.startsWith("Static security scan blocked") ||
    !Array.isArray(findings)
  )
    return err.message;
  const payload = {
    skill_name: err.details?.["skillName"] ?? null,
    findings: (findings as Finding[]).map(toWireFinding),
  };
  return `${err.message} Findings: ${pythonJson(payload)}`;
}

function errorText(err: unknown, logger: Logger): string {
  let detail: string;
  if (SkillsError.isInstance(err)) {
    detail = staticBlockText(err);
  } else {
    // Unexpected (I/O...): Node messages carry host paths, so the model gets the code only.
    const code = (err as NodeJS.ErrnoException | null)?.code;
    logger.error({ err: err instanceof Error ? err.message : String(err), code }, "skill_manage failed unexpectedly");
    detail = `skill_manage failed unexpectedly${typeof code === "string" ? ` (${code})` : ""}.`;
  }
  return `Error: ${detail.length > MAX_TOOL_ERROR_CHARS ? `${detail.slice(0, MAX_TOOL_ERROR_CHARS)}…` : detail}`;
}

/**
 * Creates the `skill_manage` LangChain tool over a store. Register it only when
 * skill evolution is enabled (DeerFlow keeps it off by default).
 *
 * @param store - the custom skill store (its `onChange` hook invalidates caches), or a function picking
 *   the store of each call from its config (per-user skills: the run's `configurable.user_id`).
 * @param options - thread id resolution and a logger.
 * @returns the tool; every change is recorded with author `agent`.
 * @example
 * ```ts
 * const agent = createAgent({ model, tools: [createSkillManageTool(store)] });
 * await agent.invoke({ messages: [...] }, { configurable: { thread_id: "t1" } });
 * ```
 */
export function createSkillManageTool(store: SkillManageStoreInput, options: SkillManageToolOptions = {}) {
  const getThreadId = options.getThreadId ?? defaultThreadId;
  const logger = options.logger ?? silentLogger;
  return tool(
    async (raw: unknown, config?: ToolRunnableConfig): Promise<string> => {
      const threadId = getThreadId(config);
      const ctx: MutationContext = {
        author: "agent",
        ...(threadId !== undefined ? { threadId } : {}),
        ...(config?.signal ? { signal: config.signal } : {}),
      };
      try {
        const target = typeof store === "function" ? await store(config) : store;
        return await runSkillManage(target, toInput(raw), ctx);
      } catch (err) {
        return errorText(err, logger);
      }
    },
    { name: SKILL_MANAGE_TOOL_NAME, description: SKILL_MANAGE_DESCRIPTION, schema: SKILL_MANAGE_SCHEMA },
  );
}
