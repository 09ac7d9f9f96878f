import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { ToolMessage } from "@langchain/core/messages";
import type { StructuredToolInterface } from "@langchain/core/tools";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { McpToolset, extensionsFileMcpSource, staticMcpSource, type McpServerSpec } from "../../src/mcp/index.js";
import {
  childPids,
  eventually,
  everythingStdio,
  failingStdio,
  filesystemStdio,
  hangingStdio,
  slowStdio,
  startHttpEverything,
  type HttpEverything,
} from "../support/mcp-servers.js";

const toolsets: McpToolset[] = [];
function toolset(
  servers: Record<string, McpServerSpec>,
  extra: Partial<ConstructorParameters<typeof McpToolset>[0]> = {},
) {
  const t = new McpToolset({ source: staticMcpSource(servers), connectTimeoutMs: 20_000, ...extra });
  toolsets.push(t);
  return t;
}
afterEach(async () => {
  await Promise.all(toolsets.splice(0).map((t) => t.close()));
});

function find(tools: readonly StructuredToolInterface[], name: string): StructuredToolInterface {
  const t = tools.find((x) => x.name === name);
  if (t === undefined) throw new Error(`no tool ${name} in ${tools.map((x) => x.name).join(", ")}`);
  return t;
}

async function call(
  tool: StructuredToolInterface,
  args: Record<string, unknown>,
  threadId = "t1",
): Promise<ToolMessage> {
  const out = await tool.invoke(
    { type: "tool_call", id: "call-1", name: tool.name, args },
    { configurable: { thread_id: threadId } },
  );
  return out as ToolMessage;
}

describe("McpToolset against real servers", () => {
  let http: HttpEverything;
  let tmp: string;
  beforeAll(async () => {
    http = await startHttpEverything();
    tmp = await fs.mkdtemp(path.join(os.tmpdir(), "mcp-toolset-"));
    await fs.writeFile(path.join(tmp, "hello.txt"), "hello from the filesystem server");
  });
  afterAll(async () => {
    await http.close();
    await fs.rm(tmp, { recursive: true, force: true });
  });

  it("loads stdio, streamable HTTP and filesystem servers as {server}_{tool}, and skips a failing and a hanging one with a status", async () => {
    const ts = toolset({
      everything: everythingStdio(),
      web: { type: "http", url: http.url },
      fs: filesystemStdio(tmp),
      broken: failingStdio(),
      stuck: { ...hangingStdio(), sessionInitTimeout: 2 },
      off: { ...everythingStdio(), enabled: false },
    });
    const tools = await ts.tools();
    const names = tools.map((t) => t.name);
    expect(names).toContain("everything_echo");
    expect(names).toContain("web_echo");
    expect(names).toContain("fs_read_text_file");
    expect(names.some((n) => n.startsWith("broken_") || n.startsWith("stuck_") || n.startsWith("off_"))).toBe(false);

    const status = Object.fromEntries((await ts.status()).map((s) => [s.name, s]));
    expect(status["everything"]).toMatchObject({ state: "connected", enabled: true, type: "stdio" });
    expect(status["everything"]!.toolCount).toBe(names.filter((n) => n.startsWith("everything_")).length);
    expect(status["web"]).toMatchObject({ state: "connected", type: "http" });
    expect(status["broken"]).toMatchObject({ state: "failed", toolCount: 0 });
    expect(status["broken"]!.error).toMatch(/^Skipping MCP server 'broken': tool discovery failed: /);
    expect(status["stuck"]).toMatchObject({ state: "failed" });
    expect(status["stuck"]!.error).toBe("Skipping MCP server 'stuck' after tool discovery timed out (2s)");
    expect(status["off"]).toMatchObject({ state: "disabled", enabled: false });

    expect((await call(find(tools, "everything_echo"), { message: "hi" })).content).toBe("Echo: hi");
    expect((await call(find(tools, "web_echo"), { message: "over http" })).content).toBe("Echo: over http");
    const read = await call(find(tools, "fs_read_text_file"), { path: path.join(tmp, "hello.txt") });
    expect(read.content).toContain("hello from the filesystem server");
  });

  it("answers without waiting for a slow server, whose tools join when it answers", async () => {
    const ts = toolset(
      {
        fast: { type: "http", url: http.url },
        slow: slowStdio(8000),
        stuck: { ...hangingStdio(), sessionInitTimeout: 60 },
      },
      { firstLoadWaitMs: 3000 },
    );
    const before = childPids();
    const started = Date.now();
    const first = await ts.tools();
    expect(Date.now() - started).toBeLessThan(30_000); // not the stuck server's 60 s
    expect(first.some((t) => t.name === "fast_echo")).toBe(true);
    if (first.some((t) => t.name === "slow_echo"))
      throw new Error("the machine was too slow to see the slow server pending");
    const status = Object.fromEntries((await ts.status()).map((s) => [s.name, s.state]));
    expect(status).toMatchObject({ fast: "connected", slow: "pending", stuck: "pending" });
    let later: readonly StructuredToolInterface[] = first;
    const end = Date.now() + 60_000;
    while (!later.some((t) => t.name === "slow_echo") && Date.now() < end) {
      await new Promise((r) => setTimeout(r, 200));
      later = await ts.tools();
    }
    expect((await call(find(later, "slow_echo"), { message: "late" })).content).toBe("Echo: late");
    expect(later.map((t) => t.name)).toEqual([...later.map((t) => t.name)].sort());
    // The stuck server is still starting; closing stops it too.
    expect((await ts.status()).find((x) => x.name === "stuck")?.state).toBe("pending");
    await ts.close();
    await eventually(() => childPids().filter((p) => !before.includes(p)).length === 0);
  });

  it("turns images into image_url blocks, resources into text with their uri, structuredContent into JSON text", async () => {
    const tools = await toolset({ e: { type: "http", url: http.url } }).tools();
    const image = await call(find(tools, "e_get-tiny-image"), {});
    const blocks = image.content as Array<{ type: string; image_url?: { url: string } }>;
    expect(blocks.some((b) => b.type === "image_url" && b.image_url!.url.startsWith("data:image/png;base64,"))).toBe(
      true,
    );

    const resource = await call(find(tools, "e_get-resource-reference"), { resourceType: "Text", resourceId: 1 });
    expect(String(JSON.stringify(resource.content))).toMatch(/\[resource\] demo:\/\/resource\/[^\s"]*1/);

    const structured = await call(find(tools, "e_get-structured-content"), { location: "Chicago" });
    const text = typeof structured.content === "string" ? structured.content : JSON.stringify(structured.content);
    expect(text).toContain("temperature");
    expect((structured.artifact as { structuredContent?: unknown }).structuredContent).toMatchObject({
      conditions: expect.any(String),
    });
  });

  it("an isError result and a call over its timeout are errors naming the tool", async () => {
    const tools = await toolset({ e: { ...everythingStdio(), toolCallTimeout: 1 } }).tools();
    await expect(call(find(tools, "e_trigger-long-running-operation"), { duration: 5, steps: 5 })).rejects.toThrow(
      "MCP tool 'trigger-long-running-operation' on server 'e' timed out after 1s",
    );
    await expect(call(find(tools, "e_get-sum"), { a: "x", b: 2 })).rejects.toThrow();
  });

  it("keeps the bare name with tool_name_prefix false", async () => {
    const tools = await toolset({ e: { ...everythingStdio(), toolNamePrefix: false } }).tools();
    expect((await call(find(tools, "echo"), { message: "bare" })).content).toBe("Echo: bare");
  });

  it("pools stdio sessions per (server, thread) with an LRU bound, and leaves no child process after close", async () => {
    const before = childPids();
    const ts = toolset({ e: everythingStdio() }, { maxSessions: 2 });
    const echo = find(await ts.tools(), "e_echo");
    await eventually(() => childPids().length === before.length); // the discovery session closed
    await call(echo, { message: "a" }, "thread-a");
    const afterA = childPids().filter((p) => !before.includes(p));
    expect(afterA).toHaveLength(1);
    await call(echo, { message: "a again" }, "thread-a");
    expect(childPids().filter((p) => !before.includes(p))).toEqual(afterA); // reused
    await call(echo, { message: "b" }, "thread-b");
    expect(childPids().filter((p) => !before.includes(p))).toHaveLength(2);
    await call(echo, { message: "c" }, "thread-c"); // evicts thread-a's session
    await eventually(() => !childPids().includes(afterA[0]!));
    expect(childPids().filter((p) => !before.includes(p))).toHaveLength(2);
    await ts.close();
    await eventually(() => childPids().filter((p) => !before.includes(p)).length === 0);
  });

  it("runs a thread's stdio sessions in its own folder (cwd and TMPDIR) unless the entry sets them", async () => {
    const work = await fs.mkdtemp(path.join(os.tmpdir(), "mcp-workdir-"));
    const ts = toolset(
      { e: everythingStdio(), own: { ...everythingStdio(), env: { TMPDIR: "/tmp/own" } } },
      { stdioWorkDir: ({ threadId, userId }) => path.join(work, userId ?? "anon", threadId) },
    );
    const tools = await ts.tools();
    const envOf = async (name: string) =>
      String(
        (
          await find(tools, name).invoke(
            { type: "tool_call", id: "1", name, args: {} },
            { configurable: { thread_id: "t9", user_id: "alice" } },
          )
        ).content,
      );
    expect(await envOf("e_get-env")).toContain(`"TMPDIR": "${path.join(work, "alice", "t9")}"`);
    expect((await fs.stat(path.join(work, "alice", "t9"))).isDirectory()).toBe(true);
    expect(await envOf("own_get-env")).toContain('"TMPDIR": "/tmp/own"');
    await ts.close();
    await fs.rm(work, { recursive: true, force: true });
  });

  it("a stdio server that dies is replaced on the next call in its thread", async () => {
    const before = childPids();
    const ts = toolset({ e: everythingStdio() });
    const echo = find(await ts.tools(), "e_echo");
    await eventually(() => childPids().length === before.length); // the discovery session closed
    await call(echo, { message: "one" }, "thread-x");
    const [pid] = childPids().filter((p) => !before.includes(p));
    process.kill(pid!, "SIGKILL");
    await eventually(() => !childPids().includes(pid!));
    expect((await call(echo, { message: "two" }, "thread-x")).content).toBe("Echo: two");
    expect(childPids().filter((p) => !before.includes(p) && p !== pid)).toHaveLength(1);
  });

  it("reloads when extensions_config.json changes within the same second, without dropping a call in flight", async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), "mcp-reload-"));
    const file = path.join(dir, "extensions_config.json");
    const write = (servers: Record<string, unknown>) =>
      fs.writeFile(file, JSON.stringify({ mcpServers: servers, skills: {} }));
    const stdio = { type: "stdio", command: process.execPath, args: everythingStdio().args };
    await write({ one: stdio });
    const stat = await fs.stat(file);
    const ts = new McpToolset({ source: extensionsFileMcpSource(file) });
    toolsets.push(ts);
    const first = await ts.tools();
    expect(first.some((t) => t.name === "one_echo")).toBe(true);
    const slow = call(find(first, "one_trigger-long-running-operation"), { duration: 2, steps: 2 });
    await new Promise((r) => setTimeout(r, 300));

    await write({ two: stdio });
    await fs.utimes(file, stat.atime, stat.mtime); // same mtime: the size and hash still tell
    const second = await ts.tools();
    expect(second.map((t) => t.name)).toContain("two_echo");
    expect(second.some((t) => t.name === "one_echo")).toBe(false);
    const done = await slow;
    expect(String(done.content)).toContain("Long running operation completed");

    await fs.rm(file); // deleted after a load: the last good tools stay
    expect(await ts.tools()).toBe(second);
    await fs.rm(dir, { recursive: true, force: true });
  });
});
