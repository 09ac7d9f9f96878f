import { AIMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import { createAgent } from "langchain";
import { describe, expect, it } from "vitest";
import { createSandboxTools } from "./create-sandbox-tools.js";
import { MemorySandbox } from "../../test/support/tools/memory-sandbox.js";

describe("createSandboxTools in an agent loop", () => {
  it("writes a file from the model's tool call and feeds OK back", async () => {
    const sandbox = new MemorySandbox({ id: "local:u:thread-9", isolated: true });
    const seenThreads: unknown[] = [];
    const tools = createSandboxTools({
      getSandbox: async (config) => {
        seenThreads.push(config?.configurable?.["thread_id"]);
        return sandbox;
      },
    });
    const model = fakeModel()
      .respondWithTools([
        {
          name: "write_file",
          args: { description: "save notes", path: "/mnt/user-data/outputs/notes.md", content: "# Notes\n" },
          id: "call_1",
        },
      ])
      .respond(new AIMessage("done"));
    const agent = createAgent({ model, tools: [...tools] });

    const result = await agent.invoke(
      { messages: [new HumanMessage("Save my notes.")] },
      { configurable: { thread_id: "thread-9" } },
    );

    expect(sandbox.text("/mnt/user-data/outputs/notes.md")).toBe("# Notes\n");
    const toolMessage = result.messages.find((m) => ToolMessage.isInstance(m));
    expect(toolMessage?.content).toBe("OK");
    expect((toolMessage as ToolMessage | undefined)?.tool_call_id).toBe("call_1");
    expect(result.messages.at(-1)?.content).toBe("done");
    expect(seenThreads).toEqual(["thread-9"]);
  });

  it("hands a refusal back to the model as an Error: ToolMessage and keeps going", async () => {
    const sandbox = new MemorySandbox({ isolated: true });
    const model = fakeModel()
      .respondWithTools([
        {
          name: "str_replace",
          args: { path: "/mnt/skills/public/pdf/SKILL.md", old_str: "a", new_str: "b" },
          id: "call_1",
        },
      ])
      .respondWithTools([{ name: "read_file", args: { path: "/mnt/user-data/workspace/missing.txt" }, id: "call_2" }])
      .respond(new AIMessage("gave up"));
    const agent = createAgent({ model, tools: [...createSandboxTools({ sandbox })] });

    const result = await agent.invoke({ messages: [new HumanMessage("Edit the skill.")] });

    const toolMessages = result.messages.filter((m) => ToolMessage.isInstance(m));
    expect(toolMessages.map((m) => m.content)).toEqual([
      "Error: Write access to skills path is not allowed: /mnt/skills/public/pdf/SKILL.md",
      "Error: File not found: /mnt/user-data/workspace/missing.txt",
    ]);
    expect(result.messages.at(-1)?.content).toBe("gave up");
    expect(model.callCount).toBe(3);
  });
});
