/**
 * MCP servers through the real server (issue 15 §3–4): `extensions_config.json`
 * names the real `@modelcontextprotocol/server-everything` (stdio) and a server
 * that fails to start; the scripted model calls `everything_echo` and the next
 * model request carries its result. `/api/mcp/*` masks secrets, restores them
 * on PUT, refuses stdio commands off the allowlist, and a server disabled
 * through the API is gone from the next run without a restart.
 */
import { execFileSync } from "node:child_process";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import type { RecordedRequest, ScriptStep } from "@deerflow/agent/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LEAD_AGENT_ASSISTANT_ID } from "../../src/server/create-server.js";
import { everythingStdioEntry } from "../support/everything-mcp.js";
import { startScriptedServer, type ScriptedServer } from "../support/scripted-server.js";

const hasToolResult = (r: RecordedRequest): boolean => r.messages.some((m) => m["role"] === "tool");
const delegating = (r: RecordedRequest): boolean => JSON.stringify(r.messages).includes("delegate the echo");

/** The lead (offered `task`) calls echo, or delegates; a subagent calls echo itself. */
function script(request: RecordedRequest): ScriptStep {
  const answered = hasToolResult(request);
  if (!request.toolNames.includes("task")) {
    if (request.toolNames.includes("everything_echo") && !answered)
      return { toolCalls: [{ name: "everything_echo", args: { message: "from the subagent" }, id: "call_sub_echo" }] };
    return { text: "The subagent echoed." };
  }
  if (delegating(request))
    return answered
      ? { text: "Delegated." }
      : {
          toolCalls: [
            {
              name: "task",
              id: "call_task",
              args: { description: "Echo", prompt: "Echo something.", subagent_type: "general-purpose" },
            },
          ],
        };
  if (request.toolNames.includes("everything_echo") && !answered)
    return { toolCalls: [{ name: "everything_echo", args: { message: "from the model" }, id: "call_echo" }] };
  return { text: "Done." };
}

/** Child processes of this process running server-everything. */
function everythingChildren(): number[] {
  try {
    return execFileSync("ps", ["-o", "pid=,args=", "--ppid", String(process.pid)], { encoding: "utf8" })
      .split("\n")
      .filter((line) => line.includes("server-everything"))
      .map((line) => Number(line.trim().split(/\s+/)[0]));
  } catch {
    return [];
  }
}

describe("MCP tools through the server", () => {
  let s: ScriptedServer;
  const api = (p: string, init: RequestInit = {}) =>
    fetch(`${s.t.url}/api${p}`, { ...init, headers: { "content-type": "application/json", ...init.headers } });

  beforeAll(async () => {
    s = await startScriptedServer(script, "extensions_config: ./extensions_config.json\n");
    await writeFile(
      path.join(s.dir, "extensions_config.json"),
      JSON.stringify({
        mcpServers: {
          everything: everythingStdioEntry({ env: { API_TOKEN: "s3cret" } }),
          broken: { type: "stdio", command: process.execPath, args: ["-e", "process.exit(2)"] },
        },
        skills: { kept: { enabled: false } },
      }),
    );
  }, 60_000);
  afterAll(() => s?.close());

  it("the model calls an MCP tool and the next request carries its result; a failing server is skipped with a status", async () => {
    const thread = await s.t.client.threads.create();
    const before = s.openai.requests.length;
    await s.t.client.runs.wait(thread.thread_id, LEAD_AGENT_ASSISTANT_ID, {
      input: { messages: [{ type: "human", content: "echo something" }] },
    });
    const requests = s.openai.requests.slice(before);
    expect(requests[0]!.toolNames).toContain("everything_echo");
    const next = requests.find((r) => r.messages.some((m) => m["role"] === "tool"));
    const tool = next?.messages.find((m) => m["role"] === "tool");
    expect(JSON.stringify(tool?.["content"])).toContain("Echo: from the model");

    const status = (await (await api("/mcp/status")).json()) as {
      servers: { name: string; state: string; error: string | null; tool_count: number }[];
    };
    const byName = Object.fromEntries(status.servers.map((x) => [x.name, x]));
    expect(byName["everything"]).toMatchObject({ state: "connected" });
    expect(byName["everything"]!.tool_count).toBeGreaterThan(5);
    expect(byName["broken"]).toMatchObject({ state: "failed" });
    expect(byName["broken"]!.error).toContain("Skipping MCP server 'broken'");
  });

  it("GET masks secrets; PUT restores *** and refuses *** for a new key and a stdio command off the allowlist", async () => {
    const got = (await (await api("/mcp/config")).json()) as { mcp_servers: Record<string, Record<string, unknown>> };
    expect(got.mcp_servers["everything"]!["env"]).toEqual({ API_TOKEN: "***" });

    const newKey = await api("/mcp/config", {
      method: "PUT",
      body: JSON.stringify({
        mcp_servers: {
          ...got.mcp_servers,
          everything: { ...got.mcp_servers["everything"], env: { API_TOKEN: "***", OTHER: "***" } },
        },
      }),
    });
    expect(newKey.status).toBe(400);
    expect(((await newKey.json()) as { detail: string }).detail).toBe(
      "Cannot set env key 'OTHER' to masked value '***'; provide a real value.",
    );

    const disallowed = await api("/mcp/config", {
      method: "PUT",
      body: JSON.stringify({
        mcp_servers: { ...got.mcp_servers, evil: { type: "stdio", command: "bash", args: ["-c", "id"] } },
      }),
    });
    expect(disallowed.status).toBe(400);
    expect(((await disallowed.json()) as { detail: string }).detail).toContain(
      "MCP server 'evil' uses disallowed stdio command 'bash'. Allowed commands: npx, uvx.",
    );

    const bad = await api("/mcp/config", { method: "PUT", body: JSON.stringify({ servers: {} }) });
    expect(bad.status).toBe(422);
  });

  it("a subagent gets the MCP tools too, and its next model request carries the result", async () => {
    const thread = await s.t.client.threads.create();
    const before = s.openai.requests.length;
    await s.t.client.runs.wait(thread.thread_id, LEAD_AGENT_ASSISTANT_ID, {
      input: { messages: [{ type: "human", content: "please delegate the echo" }] },
    });
    const sub = s.openai.requests.slice(before).filter((r) => !r.toolNames.includes("task"));
    expect(sub[0]?.toolNames).toContain("everything_echo");
    const tool = sub.find(hasToolResult)?.messages.find((m) => m["role"] === "tool");
    expect(JSON.stringify(tool?.["content"])).toContain("Echo: from the subagent");
  });

  it("a server disabled through PUT is gone from the next run, without a restart; the secret and skills survive", async () => {
    const got = (await (await api("/mcp/config")).json()) as { mcp_servers: Record<string, Record<string, unknown>> };
    const put = await api("/mcp/config", {
      method: "PUT",
      body: JSON.stringify({ mcp_servers: { everything: { ...got.mcp_servers["everything"], enabled: false } } }),
    });
    expect(put.status).toBe(200);
    const { readFile } = await import("node:fs/promises");
    const onDisk = JSON.parse(await readFile(path.join(s.dir, "extensions_config.json"), "utf8")) as {
      mcpServers: Record<string, { env?: Record<string, string>; enabled?: boolean }>;
      skills: unknown;
    };
    expect(onDisk.mcpServers["everything"]).toMatchObject({ enabled: false, env: { API_TOKEN: "s3cret" } });
    expect(onDisk.mcpServers["broken"]).toBeUndefined(); // PUT replaces the map
    expect(onDisk.skills).toEqual({ kept: { enabled: false } });

    const thread = await s.t.client.threads.create();
    const before = s.openai.requests.length;
    await s.t.client.runs.wait(thread.thread_id, LEAD_AGENT_ASSISTANT_ID, {
      input: { messages: [{ type: "human", content: "echo again" }] },
    });
    for (const r of s.openai.requests.slice(before)) expect(r.toolNames).not.toContain("everything_echo");
  });

  it("shutting the server down leaves no MCP child process", async () => {
    const got = (await (await api("/mcp/config")).json()) as { mcp_servers: Record<string, Record<string, unknown>> };
    const on = await api("/mcp/config", {
      method: "PUT",
      body: JSON.stringify({ mcp_servers: { everything: { ...got.mcp_servers["everything"], enabled: true } } }),
    });
    expect(on.status).toBe(200);
    // A run per thread: each holds a pooled stdio session.
    for (const content of ["echo one", "echo two"]) {
      const thread = await s.t.client.threads.create();
      await s.t.client.runs.wait(thread.thread_id, LEAD_AGENT_ASSISTANT_ID, {
        input: { messages: [{ type: "human", content }] },
      });
    }
    expect(everythingChildren().length).toBeGreaterThanOrEqual(2);
    await s.t.server.close({ drain: false });
    for (let i = 0; i < 200 && everythingChildren().length > 0; i++) await new Promise((r) => setTimeout(r, 100));
    expect(everythingChildren()).toEqual([]);
  });
});
