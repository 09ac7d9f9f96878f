import { readFile } from "node:fs/promises";
import path from "node:path";
import { AIMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import { createAgent } from "langchain";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CustomSkillStore } from "../custom/custom-skill-store.js";
import { makeTempRoots, skillMd, type TempRoots } from "../../test/support/custom/fixtures.js";
import { createSkillManageTool } from "./skill-manage.js";

let roots: TempRoots;

beforeEach(async () => {
  roots = await makeTempRoots("skill-manage-agent-");
});
afterEach(async () => {
  await roots.cleanup();
});

describe("createSkillManageTool in an agent loop", () => {
  it("creates a skill on disk from the model's tool call and feeds the result back", async () => {
    const store = new CustomSkillStore({ customRoot: roots.customRoot });
    const model = fakeModel()
      .respondWithTools([
        {
          name: "skill_manage",
          args: { action: "create", name: "pdf-notes", content: skillMd("pdf-notes") },
          id: "call_1",
        },
      ])
      .respond(new AIMessage("done"));
    const agent = createAgent({ model, tools: [createSkillManageTool(store)] });

    const result = await agent.invoke(
      { messages: [new HumanMessage("Remember how to take PDF notes.")] },
      { configurable: { thread_id: "thread-42" } },
    );

    expect(await readFile(path.join(roots.customRoot, "pdf-notes", "SKILL.md"), "utf8")).toBe(skillMd("pdf-notes"));
    const toolMessage = result.messages.find((m) => ToolMessage.isInstance(m));
    expect(toolMessage?.content).toBe("Created custom skill 'pdf-notes'.");
    expect((toolMessage as ToolMessage | undefined)?.tool_call_id).toBe("call_1");
    expect(result.messages.at(-1)?.content).toBe("done");
    expect((await store.history("pdf-notes"))[0]).toMatchObject({
      action: "create",
      author: "agent",
      threadId: "thread-42",
    });
  });

  it("hands an expected failure back to the model as an Error: ToolMessage and keeps going", async () => {
    const store = new CustomSkillStore({ customRoot: roots.customRoot });
    const model = fakeModel()
      .respondWithTools([
        {
          name: "skill_manage",
          args: { action: "write_file", name: "ghost", path: "../escape", content: "x" },
          id: "call_1",
        },
      ])
      .respond(new AIMessage("could not"));
    const agent = createAgent({ model, tools: [createSkillManageTool(store)] });

    const result = await agent.invoke({ messages: [new HumanMessage("Write it.")] });

    const toolMessage = result.messages.find((m) => ToolMessage.isInstance(m));
    expect(toolMessage?.content).toBe("Error: Custom skill 'ghost' not found.");
    expect(result.messages.at(-1)?.content).toBe("could not");
    expect(model.callCount).toBe(2);
  });
});
