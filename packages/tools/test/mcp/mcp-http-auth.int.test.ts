import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ToolMessage } from "@langchain/core/messages";
import { McpToolset, staticMcpSource } from "../../src/mcp/index.js";
import { startHttpEverything, type HttpEverything } from "../support/mcp-servers.js";
import { startOAuthProxy, type OAuthProxy } from "../support/oauth-proxy.js";

describe("MCP over SSE and over streamable HTTP behind OAuth client credentials", () => {
  let sse: HttpEverything;
  let http: HttpEverything;
  let proxy: OAuthProxy;
  beforeAll(async () => {
    [sse, http] = await Promise.all([startHttpEverything("sse"), startHttpEverything("streamableHttp")]);
    proxy = await startOAuthProxy(http.url, { id: "deerflow", secret: "s3cret" });
  });
  afterAll(async () => {
    await proxy?.close();
    await Promise.all([sse?.close(), http?.close()]);
  });

  const echo = async (toolset: McpToolset, name: string, message: string) => {
    const tool = (await toolset.tools()).find((t) => t.name === name);
    if (tool === undefined) throw new Error(`no ${name}: ${JSON.stringify(await toolset.status())}`);
    return ((await tool.invoke({ type: "tool_call", id: "1", name, args: { message } })) as ToolMessage).content;
  };

  it("calls a tool over SSE", async () => {
    const toolset = new McpToolset({ source: staticMcpSource({ old: { type: "sse", url: sse.url } }) });
    try {
      expect(await echo(toolset, "old_echo", "via sse")).toBe("Echo: via sse");
    } finally {
      await toolset.close();
    }
  });

  it("fetches the token once, sends it on every request, and a wrong secret is a failed status naming the endpoint", async () => {
    const oauth = { tokenUrl: proxy.tokenUrl, clientId: "deerflow", clientSecret: "s3cret", scope: "mcp" };
    const toolset = new McpToolset({
      source: staticMcpSource({
        secure: { type: "http", url: proxy.mcpUrl, oauth },
        wrong: { type: "http", url: proxy.mcpUrl, oauth: { ...oauth, clientSecret: "nope" } },
      }),
    });
    try {
      expect(await echo(toolset, "secure_echo", "one")).toBe("Echo: one");
      expect(await echo(toolset, "secure_echo", "two")).toBe("Echo: two");
      const granted = proxy.tokenRequests.filter((f) => f.get("client_secret") === "s3cret");
      expect(granted).toHaveLength(1);
      expect(granted[0]!.get("scope")).toBe("mcp");
      const wrong = (await toolset.status()).find((s) => s.name === "wrong");
      expect(wrong).toMatchObject({ state: "failed" });
      expect(wrong!.error).toContain(`OAuth token endpoint ${proxy.tokenUrl} answered HTTP 401`);
      expect(proxy.refused).toBe(0);
    } finally {
      await toolset.close();
    }
  });
});
