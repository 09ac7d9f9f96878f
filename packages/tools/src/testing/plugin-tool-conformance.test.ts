// The kit must fail a tool that breaks its contract: its cases are collected with a recording
// runner and run here one by one.
import { tool } from "@langchain/core/tools";
import { describe, expect, it } from "vitest";
import { pluginToolConformance, type ConformingTool } from "./plugin-tool-conformance.js";

type Case = { name: string; body: () => Promise<void>; skipped: boolean };

function collect(makeTool: () => ConformingTool, extra: { slowInput?: Record<string, unknown> } = {}): Case[] {
  const cases: Case[] = [];
  const record = (skipped: boolean) => (name: string, body: () => Promise<void>) =>
    void cases.push({ name, body, skipped });
  const recordingIt = Object.assign(record(false), { skip: record(true) });
  pluginToolConformance({
    name: "under test",
    makeTool,
    validInput: { text: "hello" },
    timeoutMs: 200,
    describe: (_name, body) => body(),
    it: recordingIt,
    expect,
    ...extra,
  });
  return cases;
}

const good = () =>
  tool(async ({ text }: { text: string }) => `got ${text}`, {
    name: "good_tool",
    description: "Answers with what it got.",
    schema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
  }) as unknown as ConformingTool;

async function outcome(c: Case | undefined): Promise<"pass" | "fail"> {
  return c!.body().then(
    () => "pass",
    () => "fail",
  );
}
const find = (cases: Case[], part: string) => cases.find((c) => c.name.includes(part));

describe("pluginToolConformance catches broken tools", () => {
  it("a good tool passes every case; the timeout case is skipped, with why, without slowInput", async () => {
    const cases = collect(good);
    for (const c of cases.filter((x) => !x.skipped)) expect(await outcome(c), c.name).toBe("pass");
    expect(cases.filter((c) => c.skipped).map((c) => c.name)).toEqual([
      "answers with an error text when its backend never answers (skipped: no slowInput given)",
    ]);
  });

  it("fails a name model APIs refuse, an empty answer, a schema the input does not fit, a hang", async () => {
    const badName = tool(async () => "x", {
      name: "bad name!",
      description: "A name with a space and a bang.",
      schema: { type: "object", properties: { text: { type: "string" } } },
    }) as unknown as ConformingTool;
    expect(
      await outcome(
        find(
          collect(() => badName),
          "name model APIs",
        ),
      ),
    ).toBe("fail");

    const silent = tool(async () => "  ", {
      name: "silent",
      description: "Answers with nothing.",
      schema: { type: "object", properties: { text: { type: "string" } } },
    }) as unknown as ConformingTool;
    expect(
      await outcome(
        find(
          collect(() => silent),
          "non-empty text",
        ),
      ),
    ).toBe("fail");

    const otherSchema = tool(async () => "x", {
      name: "other_schema",
      description: "Takes a query, not a text.",
      schema: { type: "object", properties: { query: { type: "string" } }, required: ["query"] },
    }) as unknown as ConformingTool;
    expect(
      await outcome(
        find(
          collect(() => otherSchema),
          "JSON-object input schema",
        ),
      ),
    ).toBe("fail");

    const hangs = tool(async () => new Promise<string>(() => {}), {
      name: "hangs",
      description: "Never answers at all.",
      schema: { type: "object", properties: { text: { type: "string" } } },
    }) as unknown as ConformingTool;
    const slow = find(
      collect(() => hangs, { slowInput: { text: "slow" } }),
      "not a hang",
    );
    expect(await outcome(slow)).toBe("fail");
  }, 60_000);
});
