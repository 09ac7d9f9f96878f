import { AIMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { MiddlewareError, ToolInvocationError } from "langchain";
import { describe, expect, it } from "vitest";
import {
  checkOutputPath,
  clarificationAnswer,
  clarificationRequest,
  INTERRUPTED_TOOL_CALL_TEXT,
  mergeArtifacts,
  patchDanglingToolCalls,
  readRunOptions,
  toolErrorText,
} from "../index.js";

const call = (id: string, name = "ls", args: Record<string, unknown> = { path: "/a" }) => ({
  id,
  name,
  args,
  type: "tool_call" as const,
});

describe("patchDanglingToolCalls", () => {
  it("inserts an error result right after the message whose call has none", () => {
    const messages = [
      new HumanMessage("hi"),
      new AIMessage({ content: "", tool_calls: [call("a"), call("b")] }),
      new ToolMessage({ content: "ok", tool_call_id: "a" }),
      new HumanMessage("again"),
    ];
    const patched = patchDanglingToolCalls(messages);
    expect(patched.map((m) => m.getType())).toEqual(["human", "ai", "tool", "tool", "human"]);
    const synthetic = patched[2] as ToolMessage;
    expect(synthetic.tool_call_id).toBe("b");
    expect(synthetic.status).toBe("error");
    expect(synthetic.content).toBe(INTERRUPTED_TOOL_CALL_TEXT);
  });

  it("returns the same array when nothing dangles", () => {
    const messages = [
      new HumanMessage("hi"),
      new AIMessage({ content: "", tool_calls: [call("a")] }),
      new ToolMessage({ content: "ok", tool_call_id: "a" }),
    ];
    expect(patchDanglingToolCalls(messages)).toBe(messages);
  });
});

describe("toolErrorText", () => {
  it("names the tool and error without a stack trace", () => {
    const err = new TypeError("bad thing\n    at foo (/srv/app.js:1:1)\n    at bar (/srv/app.js:2:2)");
    expect(toolErrorText("boom", err)).toBe(
      "Error: Tool 'boom' failed with TypeError: bad thing. Continue with available context, or choose an alternative tool.",
    );
  });

  it("reports invalid arguments, unwrapping middleware errors", () => {
    const invalid = new ToolInvocationError(
      new Error("Received tool input did not match expected schema"),
      call("x", "add", { a: "1" }),
    );
    const wrapped = MiddlewareError.wrap(invalid, "Other");
    expect(toolErrorText("add", wrapped)).toBe(
      "Error: Invalid arguments for tool 'add': Received tool input did not match expected schema. Check the tool's parameters and call it again.",
    );
    expect(toolErrorText("add", wrapped)).not.toContain("    at ");
  });

  it("caps long messages at 500 characters", () => {
    const text = toolErrorText("t", new Error("x".repeat(2000)));
    expect(text.length).toBeLessThan(650);
  });
});

describe("checkOutputPath", () => {
  it("accepts files under outputs and normalises them", () => {
    expect(checkOutputPath("/mnt/user-data/outputs/report.md")).toEqual({
      ok: true,
      path: "/mnt/user-data/outputs/report.md",
    });
    expect(checkOutputPath("/mnt/user-data/outputs//sub/./a.csv")).toEqual({
      ok: true,
      path: "/mnt/user-data/outputs/sub/a.csv",
    });
  });

  it("rejects other folders, the folder itself and traversal", () => {
    for (const p of [
      "/mnt/user-data/workspace/a.md",
      "/mnt/user-data/outputs/",
      "/mnt/user-data/outputs",
      "/mnt/user-data/outputs/../workspace/a",
      "outputs/a.md",
      "",
    ]) {
      expect(checkOutputPath(p).ok).toBe(false);
    }
  });
});

describe("clarification helpers", () => {
  it("builds the interrupt value from the arguments", () => {
    expect(
      clarificationRequest(
        { question: "Which env?", clarification_type: "missing_info", options: ["dev", 3, "prod"] },
        "c1",
      ),
    ).toEqual({
      type: "clarification",
      question: "Which env?",
      clarification_type: "missing_info",
      context: null,
      options: ["dev", "prod"],
      tool_call_id: "c1",
    });
  });

  it("reads answers given as text or objects", () => {
    expect(clarificationAnswer("prod")).toBe("prod");
    expect(clarificationAnswer({ answer: "dev" })).toBe("dev");
    expect(clarificationAnswer({ choice: 2 })).toBe('{"choice":2}');
  });
});

describe("mergeArtifacts", () => {
  it("keeps order and drops duplicates", () => {
    expect(mergeArtifacts(["/a", "/b"], ["/b", "/c"])).toEqual(["/a", "/b", "/c"]);
    expect(mergeArtifacts(undefined, ["/a"])).toEqual(["/a"]);
  });
});

describe("readRunOptions", () => {
  it("reads DeerFlow's configurable keys, then context", () => {
    expect(
      readRunOptions({
        configurable: { model_name: "gpt", subagent_enabled: false, user_id: "u1" },
        context: { max_concurrent_subagents: 2 },
      }),
    ).toEqual({
      modelName: "gpt",
      subagentEnabled: false,
      maxConcurrentSubagents: 2,
      userId: "u1",
    });
    expect(readRunOptions({ configurable: { model_name: 3, subagent_enabled: "yes" } })).toEqual({});
    expect(readRunOptions(undefined)).toEqual({});
  });

  it("reads the user only from configurable (where the gateway writes the caller's id), never from context", () => {
    expect(readRunOptions({ context: { user_id: "mallory", model_name: "gpt" } })).toEqual({ modelName: "gpt" });
    expect(readRunOptions({ configurable: { user_id: "alice" }, context: { user_id: "mallory" } })).toEqual({
      userId: "alice",
    });
  });
});
