/**
 * DeerFlow's `/api/mcp` routes (§2.4), admin-only (403 "Admin privileges
 * required to manage MCP configuration." before the body is read):
 *
 * - `GET /mcp/config`: `{mcp_servers}` with secrets masked.
 * - `PUT /mcp/config`: replaces the whole map (other top-level keys such as
 *   `skills` are kept), `***` restores stored secrets, stdio entries whose
 *   command, args or env change are checked against the allowlist; written
 *   atomically; the toolset reloads on its next use.
 * - `PATCH /mcp/config`: `{server_name, enabled}` flips one server.
 * - `POST /mcp/cache/reset`: forgets the loaded tools.
 * - `GET /mcp/status` (ours): per-server state, error text, tool count and tools.
 */
import fs from "node:fs/promises";
import { writeFileAtomic } from "@deerflow/kernel";
import { GatewayError, guarded, requireAdmin } from "@deerflow/gateway";
import type { McpToolset } from "@deerflow/tools";
import type { FastifyPluginAsync } from "fastify";
import { maskServer, restoreServer } from "./mask-secrets.js";
import { checkStdioCommand } from "./stdio-command-policy.js";

/** DeerFlow's 403 detail. */
const MCP_ADMIN_MESSAGE = "Admin privileges required to manage MCP configuration.";

/** What the routes work on. */
export interface McpRoutesOptions {
  /** The server's `extensions_config.json`. */
  readonly filePath: string;
  readonly toolset: McpToolset;
  /** For the stdio allowlist (`DEER_FLOW_MCP_STDIO_COMMAND_ALLOWLIST`). */
  readonly env: NodeJS.ProcessEnv;
}

type Entry = Record<string, unknown>;

const stringMap = { type: "object", additionalProperties: { type: "string" } } as const;
const nullableNumber = { type: ["number", "null"], minimum: 0 } as const;
const serverEntrySchema = {
  type: "object",
  properties: {
    enabled: { type: "boolean" },
    type: { enum: ["stdio", "sse", "http"] },
    transport: { type: "string" },
    command: { type: "string", minLength: 1 },
    args: { type: "array", items: { type: "string" }, maxItems: 256 },
    env: stringMap,
    url: { type: "string", minLength: 1, pattern: "^https?://" },
    headers: stringMap,
    description: { type: "string", maxLength: 4000 },
    tool_name_prefix: { type: "boolean" },
    tool_call_timeout: nullableNumber,
    session_init_timeout: nullableNumber,
    oauth: { type: "object", properties: { token_url: { type: "string", pattern: "^https?://" } } },
  },
  additionalProperties: true,
} as const;
const serverNamePattern = "^[A-Za-z0-9_-]{1,128}$";
const configBodySchema = {
  type: "object",
  required: ["mcp_servers"],
  properties: {
    mcp_servers: {
      type: "object",
      propertyNames: { pattern: serverNamePattern },
      additionalProperties: serverEntrySchema,
      maxProperties: 200,
    },
  },
  additionalProperties: false,
} as const;
const configResponseSchema = {
  type: "object",
  properties: { mcp_servers: { type: "object", additionalProperties: { type: "object", additionalProperties: true } } },
} as const;
const patchBodySchema = {
  type: "object",
  required: ["server_name", "enabled"],
  properties: { server_name: { type: "string", minLength: 1 }, enabled: { type: "boolean" } },
  additionalProperties: false,
} as const;
const statusResponseSchema = {
  type: "object",
  properties: {
    servers: {
      type: "array",
      items: {
        type: "object",
        properties: {
          name: { type: "string" },
          enabled: { type: "boolean" },
          type: { type: "string" },
          state: { enum: ["connected", "failed", "disabled", "pending"] },
          error: { type: ["string", "null"] },
          tool_count: { type: "integer" },
          tools: {
            type: "array",
            items: { type: "object", properties: { name: { type: "string" }, description: { type: "string" } } },
          },
        },
      },
    },
  },
} as const;

const isObject = (v: unknown): v is Entry => v !== null && typeof v === "object" && !Array.isArray(v);
const isStdio = (e: Entry): boolean =>
  (e["type"] ?? e["transport"] ?? (e["url"] === undefined ? "stdio" : "http")) === "stdio";
const sameLaunch = (a: Entry, b: Entry | undefined): boolean =>
  b !== undefined &&
  JSON.stringify([a["command"], a["args"] ?? [], a["env"] ?? {}]) ===
    JSON.stringify([b["command"], b["args"] ?? [], b["env"] ?? {}]);

/**
 * The routes plugin (register under `/api`).
 *
 * @param options - file, toolset, environment
 * @returns a Fastify plugin
 */
export function mcpRoutes(options: McpRoutesOptions): FastifyPluginAsync {
  const { filePath, toolset, env } = options;
  let writes: Promise<unknown> = Promise.resolve();
  // One writer at a time: a read-modify-write under the queue never loses another's change.
  const serial = <T>(task: () => Promise<T>): Promise<T> => {
    const run = writes.then(task, task);
    writes = run.catch(() => undefined);
    return run;
  };

  const readFile = async (): Promise<Entry> => {
    let text: string;
    try {
      text = await fs.readFile(filePath, "utf8");
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return {};
      throw err;
    }
    if (text.trim() === "") return {};
    const data: unknown = JSON.parse(text);
    if (!isObject(data)) throw new Error(`${filePath} is not a JSON object`);
    return data;
  };
  const serversOf = (doc: Entry): Record<string, Entry> =>
    isObject(doc["mcpServers"]) ? (doc["mcpServers"] as Record<string, Entry>) : {};
  const masked = (servers: Record<string, Entry>) => ({
    mcp_servers: Object.fromEntries(Object.entries(servers).map(([n, e]) => [n, maskServer(e)])),
  });
  const write = async (doc: Entry): Promise<void> => {
    await writeFileAtomic(filePath, `${JSON.stringify(doc, null, 2)}\n`);
    toolset.reset();
  };

  return async (app) => {
    const admin = requireAdmin(MCP_ADMIN_MESSAGE);

    app.get(
      "/mcp/config",
      {
        onRequest: admin,
        schema: {
          summary: "The MCP servers of extensions_config.json, secrets masked (admin)",
          tags: ["mcp"],
          response: { 200: configResponseSchema },
          "x-errors": [403],
        },
      },
      async () => guarded("Failed to load MCP configuration.", async () => masked(serversOf(await readFile()))),
    );

    app.put(
      "/mcp/config",
      {
        onRequest: admin,
        schema: {
          summary: "Replace the MCP server map; '***' keeps a stored secret (admin)",
          tags: ["mcp"],
          body: configBodySchema,
          response: { 200: configResponseSchema },
          "x-errors": [400, 403],
        },
      },
      async (request) =>
        guarded("Failed to update MCP configuration.", () =>
          serial(async () => {
            const doc = await readFile();
            const stored = serversOf(doc);
            const next: Record<string, Entry> = {};
            const body = request.body as { mcp_servers: Record<string, Entry> };
            for (const [name, incoming] of Object.entries(body.mcp_servers)) {
              const entry = restoreServer(incoming, stored[name]);
              if (isStdio(entry) && entry["enabled"] !== false && !sameLaunch(entry, stored[name]))
                checkStdioCommand(name, entry, env);
              next[name] = entry;
            }
            await write({ ...doc, mcpServers: next });
            return masked(next);
          }),
        ),
    );

    app.patch(
      "/mcp/config",
      {
        onRequest: admin,
        schema: {
          summary: "Enable or disable one MCP server (admin)",
          tags: ["mcp"],
          body: patchBodySchema,
          response: { 200: configResponseSchema },
          "x-errors": [400, 403, 404],
        },
      },
      async (request) =>
        guarded("Failed to update MCP server state.", () =>
          serial(async () => {
            const { server_name: name, enabled } = request.body as { server_name: string; enabled: boolean };
            const doc = await readFile();
            const servers = serversOf(doc);
            const entry = servers[name];
            if (entry === undefined) throw new GatewayError("NOT_FOUND", `MCP server '${name}' not found`);
            if (enabled && isStdio(entry)) checkStdioCommand(name, entry, env);
            const next = { ...servers, [name]: { ...entry, enabled } };
            await write({ ...doc, mcpServers: next });
            return masked(next);
          }),
        ),
    );

    app.post(
      "/mcp/cache/reset",
      {
        onRequest: admin,
        schema: { summary: "Reload the MCP tools on next use (admin)", tags: ["mcp"], "x-errors": [403] },
      },
      async () => {
        toolset.reset();
        return { success: true, message: "MCP tools cache reset. Tools will reload on next use." };
      },
    );

    app.get(
      "/mcp/status",
      {
        onRequest: admin,
        schema: {
          summary: "Each MCP server's state, error text, tool count and tools (loads the servers if needed; admin)",
          tags: ["mcp"],
          response: { 200: statusResponseSchema },
          "x-errors": [403],
        },
      },
      async () =>
        guarded("Failed to load MCP status.", async () => ({
          servers: (await toolset.status()).map((s) => ({
            name: s.name,
            enabled: s.enabled,
            type: s.type,
            state: s.state,
            error: s.error ?? null,
            tool_count: s.toolCount,
            tools: s.tools.map((t) => ({ name: t.name, description: t.description })),
          })),
        })),
    );
  };
}
