/**
 * Web tools through the real server (issue 15 §1, §2, §4): `config.yaml`'s
 * `tools:` names a SearXNG stand-in for `web_search` and the direct `fetch`
 * provider for `web_fetch` (with `allow_private_addresses`, since the page
 * server is local); the scripted model calls both, and each next model request
 * carries the tool's result. A second run shows the SSRF guard's answer when
 * private addresses are not allowed for a tool.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { RecordedRequest, ScriptStep } from "@deerflow/agent/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LEAD_AGENT_ASSISTANT_ID } from "../../src/server/create-server.js";
import { startScriptedServer, type ScriptedServer } from "../support/scripted-server.js";

let pages: Server;
let pagesUrl = "";

const toolResults = (r: RecordedRequest) => r.messages.filter((m) => m["role"] === "tool");

function script(request: RecordedRequest): ScriptStep {
  const results = toolResults(request);
  const last = JSON.stringify(request.messages.at(-1)?.["content"] ?? "");
  if (last.includes("sub-job")) return { text: "Sub-job done." }; // the subagent's own request
  if (last.includes("delegate") && results.length === 0)
    return {
      toolCalls: [
        {
          name: "task",
          args: { description: "look it up", prompt: "sub-job: look it up", subagent_type: "general-purpose" },
          id: "call_task",
        },
      ],
    };
  if (last.includes("delegate") || (results.length > 0 && JSON.stringify(request.messages).includes("call_task")))
    return { text: "Delegated." };
  if (last.includes("no web")) return { text: "No web for this run." };
  if (last.includes("guarded")) {
    if (results.length === 0)
      return { toolCalls: [{ name: "guarded_fetch", args: { url: `${pagesUrl}/article` }, id: "call_guarded" }] };
    return { text: "Refused, as expected." };
  }
  if (results.length === 0)
    return {
      toolCalls: [{ name: "web_search", args: { query: "deer migration", max_results: 10 }, id: "call_search" }],
    };
  if (results.length === 1)
    return { toolCalls: [{ name: "web_fetch", args: { url: `${pagesUrl}/article` }, id: "call_fetch" }] };
  return { text: "Deer move north in spring." };
}

describe("web tools through the server", () => {
  let s: ScriptedServer;

  beforeAll(async () => {
    pages = createServer((req, res) => {
      const url = new URL(req.url ?? "/", "http://x");
      if (url.pathname === "/search") {
        res.writeHead(200, { "content-type": "application/json" });
        return res.end(
          JSON.stringify({
            results: [1, 2, 3, 4].map((i) => ({
              title: `Deer migration study ${i}`,
              url: `${pagesUrl}/article?i=${i}`,
              content: `Herds move north (${url.searchParams.get("q")})`,
            })),
          }),
        );
      }
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      return res.end(
        `<html><head><title>Deer migration</title></head><body><nav>Menu</nav><article><h1>Deer migration</h1><p>${"Every spring the herds move north along the river valleys. ".repeat(8)}</p></article></body></html>`,
      );
    });
    await new Promise<void>((r) => pages.listen(0, "127.0.0.1", r));
    pagesUrl = `http://127.0.0.1:${(pages.address() as AddressInfo).port}`;
    s = await startScriptedServer(
      script,
      [
        "tool_groups:",
        "  - name: web",
        "tools:",
        "  - name: web_search",
        "    group: web",
        "    use: searxng",
        `    base_url: ${pagesUrl}`,
        "    max_results: 3",
        "  - name: web_fetch",
        "    group: web",
        "    use: fetch",
        "    allow_private_addresses: true",
        "  - name: guarded_fetch",
        "    group: web",
        "    use: fetch",
        "",
      ].join("\n"),
    );
  }, 60_000);
  afterAll(async () => {
    await s?.close();
    await new Promise<void>((r) => pages.close(() => r()));
  });

  it("the model calls web_search then web_fetch, and each next request carries the result", async () => {
    const thread = await s.t.client.threads.create();
    const before = s.openai.requests.length;
    await s.t.client.runs.wait(thread.thread_id, LEAD_AGENT_ASSISTANT_ID, {
      input: { messages: [{ type: "human", content: "How do deer migrate?" }] },
    });
    const requests = s.openai.requests.slice(before);
    expect(requests[0]!.toolNames).toEqual(expect.arrayContaining(["web_search", "web_fetch", "guarded_fetch"]));

    const afterSearch = requests.find((r) => toolResults(r).length === 1);
    const search = JSON.parse(String(toolResults(afterSearch!)[0]!["content"])) as {
      query: string;
      total_results: number;
      results: { title: string; url: string; content: string }[];
    };
    expect(search.query).toBe("deer migration");
    expect(search.total_results).toBe(3); // the model asked for 10; config caps at 3
    expect(search.results[0]).toEqual({
      title: "Deer migration study 1",
      url: `${pagesUrl}/article?i=1`,
      content: "Herds move north (deer migration)",
    });

    const afterFetch = requests.find((r) => toolResults(r).length === 2);
    const page = String(toolResults(afterFetch!)[1]!["content"]);
    expect(page.startsWith("# Deer migration\n\nEvery spring the herds move north")).toBe(true);
    expect(page).not.toContain("Menu");

    const state = await s.t.client.threads.getState(thread.thread_id);
    const messages = (state.values as { messages: { type: string; content: unknown }[] }).messages;
    expect(messages.at(-1)).toMatchObject({ type: "ai", content: "Deer move north in spring." });
  });

  it("a run whose tool_groups leaves out web is not offered the web tools; the others keep them", async () => {
    const thread = await s.t.client.threads.create();
    const before = s.openai.requests.length;
    await s.t.client.runs.wait(thread.thread_id, LEAD_AGENT_ASSISTANT_ID, {
      input: { messages: [{ type: "human", content: "no web please" }] },
      context: { tool_groups: ["files"] },
    } as Parameters<typeof s.t.client.runs.wait>[2]);
    const offered = s.openai.requests[before]!.toolNames;
    for (const name of ["web_search", "web_fetch", "guarded_fetch"]) expect(offered).not.toContain(name);
    expect(offered).toContain("bash"); // not a configured tool: no group to filter by
  });

  it("the run's tool_groups also hold for its subagents: a delegated task is not given the web tools", async () => {
    const thread = await s.t.client.threads.create();
    const before = s.openai.requests.length;
    await s.t.client.runs.wait(thread.thread_id, LEAD_AGENT_ASSISTANT_ID, {
      input: { messages: [{ type: "human", content: "delegate this" }] },
      context: { tool_groups: ["files"] },
    } as Parameters<typeof s.t.client.runs.wait>[2]);
    const sub = s.openai.requests
      .slice(before)
      .find(
        (r) =>
          JSON.stringify(r.messages).includes("sub-job: look it up") &&
          !JSON.stringify(r.messages).includes("call_task"),
      );
    expect(sub, "the subagent's model request").toBeDefined();
    expect(sub!.toolNames.length).toBeGreaterThan(0);
    for (const name of ["web_search", "web_fetch", "guarded_fetch"]) expect(sub!.toolNames).not.toContain(name);
  });

  it("a fetch tool without allow_private_addresses refuses the local page, and the model reads why", async () => {
    const thread = await s.t.client.threads.create();
    const before = s.openai.requests.length;
    await s.t.client.runs.wait(thread.thread_id, LEAD_AGENT_ASSISTANT_ID, {
      input: { messages: [{ type: "human", content: "guarded fetch please" }] },
    });
    const next = s.openai.requests.slice(before).find((r) => toolResults(r).length === 1);
    expect(String(toolResults(next!)[0]!["content"])).toMatch(
      /^Error: Refusing to fetch 127\.0\.0\.1: it is a loopback address \(only public addresses are fetched\)$/,
    );
  });
});
