import type { Sandbox } from "@deerflow/sandbox";
import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import { tool } from "@langchain/core/tools";
import { createAgent } from "langchain";
import { describe, expect, it } from "vitest";
import { z } from "zod/v4";
import { AgentError } from "../../errors.js";
import {
  createToolOutputBudgetMiddleware,
  TOOL_RESULTS_DIR,
  type ToolOutputBudgetOptions,
} from "./tool-output-budget.js";

/** A sandbox that keeps written files in a map (or fails every write). */
function fakeSandbox(fail = false): { sandbox: Sandbox; files: Map<string, string> } {
  const files = new Map<string, string>();
  const writeFile = async (path: string, content: string): Promise<void> => {
    if (fail) throw new Error("disk full");
    files.set(path, content);
  };
  return { sandbox: { writeFile } as unknown as Sandbox, files };
}

const big = (n: number) => Array.from({ length: n }, (_, i) => `line ${i} ${"x".repeat(40)}`).join("\n");

async function run(output: string, options: ToolOutputBudgetOptions, toolName = "bash"): Promise<string> {
  const producer = tool(() => output, { name: toolName, description: "produces output", schema: z.object({}) });
  const model = fakeModel()
    .respond(
      new AIMessage({ content: "", tool_calls: [{ id: "call/1", name: toolName, args: {}, type: "tool_call" }] }),
    )
    .respond(new AIMessage("done"));
  const agent = createAgent({ model, tools: [producer], middleware: [createToolOutputBudgetMiddleware(options)] });
  const out = await agent.invoke({ messages: [new HumanMessage("go")] });
  const result = out.messages.find((m: BaseMessage) => ToolMessage.isInstance(m)) as ToolMessage;
  // What the model saw on its second call is what the state holds.
  expect(model.calls[1]?.messages.at(-1)?.content).toBe(result.content);
  return String(result.content);
}

describe("ToolOutputBudgetMiddleware", () => {
  it("saves an oversized result whole and shows a synopsis, head, tail and the path", async () => {
    const { sandbox, files } = fakeSandbox();
    const output = big(50_000); // ~2 MB
    const seen = await run(output, { getSandbox: async () => sandbox });
    const path = `${TOOL_RESULTS_DIR}/bash-call_1.txt`;
    expect(files.get(path)).toBe(output);
    expect(seen.length).toBeLessThan(4000);
    expect(seen).toContain(`${output.length} characters, 50000 lines (text)`);
    expect(seen).toContain(`The full output is in ${path}; read the parts you need with read_file`);
    expect(seen).toContain(output.slice(0, 2000));
    expect(seen.endsWith(output.slice(-1000))).toBe(true);
  });

  it("leaves results up to the threshold, exempt tools, and per-tool overrides alone", async () => {
    const { sandbox, files } = fakeSandbox();
    const getSandbox = async () => sandbox;
    expect(await run("y".repeat(12_000), { getSandbox })).toBe("y".repeat(12_000));
    expect(await run(big(1000), { getSandbox }, "read_file")).toBe(big(1000));
    expect(await run("z".repeat(500), { getSandbox, toolOverrides: { bash: 100 } })).toContain(
      "[Tool output saved to a file]",
    );
    expect([...files.keys()]).toHaveLength(1);
  });

  it("cuts to head 8000 + tail 3000 when the file cannot be written, only past fallback_max_chars", async () => {
    const { sandbox } = fakeSandbox(true);
    const output = big(2000);
    const cut = await run(output, { getSandbox: async () => sandbox });
    expect(cut.startsWith(output.slice(0, 8000))).toBe(true);
    expect(cut.endsWith(output.slice(-3000))).toBe(true);
    expect(cut).toContain(`[... ${output.length - 11_000} characters omitted`);
    // Over the threshold but under fallback_max_chars: passes whole.
    expect(await run("w".repeat(20_000), {})).toBe("w".repeat(20_000));
  });

  it("rejects bad thresholds naming the key", () => {
    expect(() => createToolOutputBudgetMiddleware({ externalizeMinChars: 0 })).toThrow(AgentError);
    expect(() => createToolOutputBudgetMiddleware({ toolOverrides: { bash: 1.5 } })).toThrow(
      /^tool_output\.tool_overrides\.bash /,
    );
  });
});
