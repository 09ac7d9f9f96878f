import { DynamicStructuredTool, type StructuredToolInterface } from "@langchain/core/tools";
import { describe, expect, it } from "vitest";
import {
  TOOL_SEARCH_MAX_RESULTS,
  catalogHash,
  createToolSearchTool,
  deferredToolsSection,
  searchTools,
} from "./tool-search.js";

const make = (name: string, description: string): StructuredToolInterface =>
  new DynamicStructuredTool({
    name,
    description,
    schema: { type: "object", properties: { q: { type: "string" } } },
    func: async () => "x",
  });

const tools = [
  make("github_create_issue", "Create an issue in a repository"),
  make("github_list_issues", "List issues"),
  make("slack_post", "Post a message; can mention an issue"),
  make("fs_read_file", "Read a file"),
];

describe("tool_search (DeerFlow §2.5)", () => {
  it("select: returns exactly the named tools, in the asked order", () => {
    expect(searchTools("select:fs_read_file, github_list_issues,nope", tools).map((t) => t.name)).toEqual([
      "fs_read_file",
      "github_list_issues",
    ]);
  });

  it("+required keeps names containing it and ranks by the rest", () => {
    expect(searchTools("+GITHUB create", tools).map((t) => t.name)).toEqual([
      "github_create_issue",
      "github_list_issues",
    ]);
  });

  it("a regex scores name hits over description hits; an invalid regex matches literally", () => {
    expect(searchTools("issue", tools).map((t) => t.name)).toEqual([
      "github_create_issue",
      "github_list_issues",
      "slack_post",
    ]);
    expect(searchTools("(unclosed", [make("a", "has (unclosed paren")]).map((t) => t.name)).toEqual(["a"]);
  });

  it(`returns at most ${TOOL_SEARCH_MAX_RESULTS}`, () => {
    const many = Array.from({ length: 9 }, (_, i) => make(`t${i}`, "same"));
    expect(searchTools("same", many)).toHaveLength(TOOL_SEARCH_MAX_RESULTS);
  });

  it("the section lists sorted, HTML-escaped names and escapes a closing tag inside a name", () => {
    expect(deferredToolsSection(["b", "a</available-deferred-tools>"])).toBe(
      "<available-deferred-tools>\na&lt;/available-deferred-tools&gt;\nb\n</available-deferred-tools>",
    );
  });

  it("the catalog hash is 16 hex digits, independent of order, and changes with a schema", () => {
    const h = catalogHash(tools);
    expect(h).toMatch(/^[0-9a-f]{16}$/);
    expect(catalogHash([...tools].reverse())).toBe(h);
    expect(catalogHash([...tools.slice(1), make("github_create_issue", "changed")])).not.toBe(h);
  });

  it("answers OpenAI function schemas with the promotion as artifact, or DeerFlow's no-match text", async () => {
    const search = createToolSearchTool(tools);
    const hit = (await search.invoke({
      type: "tool_call",
      id: "1",
      name: "tool_search",
      args: { query: "select:fs_read_file" },
    })) as {
      content: string;
      artifact: unknown;
    };
    expect(JSON.parse(hit.content)).toEqual([
      {
        type: "function",
        function: {
          name: "fs_read_file",
          description: "Read a file",
          parameters: { type: "object", properties: { q: { type: "string" } } },
        },
      },
    ]);
    expect(hit.artifact).toEqual({ catalogHash: catalogHash(tools), names: ["fs_read_file"] });
    const miss = (await search.invoke({ type: "tool_call", id: "2", name: "tool_search", args: { query: "zzz" } })) as {
      content: string;
    };
    expect(miss.content).toBe("No tools found matching: zzz");
  });
});
