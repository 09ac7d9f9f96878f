import { AIMessage, HumanMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import { MemorySaver } from "@langchain/langgraph";
import { createAgent } from "langchain";
import { describe, expect, it } from "vitest";
import { silentLogger } from "../logger.js";
import { TitleState } from "../middleware/title/title-middleware.js";
import { staticModels } from "../models/model-resolver.js";
import { RunModels } from "../models/run-models.js";
import { LEAD_CHAIN, type LeadChainParts } from "./lead-chain.js";

describe("lead chain: auxiliary model calls", () => {
  it("asks the title model with thinking off (DeerFlow §5.2)", async () => {
    const built: Readonly<Record<string, unknown>>[] = [];
    const base = staticModels({ main: fakeModel().respond(new AIMessage("Paris.")), thinker: fakeModel() });
    const models = await RunModels.create({
      ...base,
      profile: (name) =>
        name === "thinker"
          ? { supportsThinking: true, whenThinkingEnabled: { extra_body: { thinking: { type: "enabled" } } } }
          : undefined,
      variant: async (_name, fields) => {
        built.push(fields);
        return fakeModel().respond(new AIMessage("Capital Question"));
      },
    });
    const parts = {
      logger: silentLogger,
      models,
      options: { title: { modelName: "thinker" } },
    } as unknown as LeadChainParts;
    const title = LEAD_CHAIN.find((e) => e.name === "TitleMiddleware")?.create(parts);
    const agent = createAgent({
      model: models.defaultModel,
      tools: [],
      middleware: title === undefined ? [] : [title],
      stateSchema: TitleState,
      checkpointer: new MemorySaver(),
    });
    const state = (await agent.invoke(
      { messages: [new HumanMessage("What is the capital of France?")] },
      { configurable: { thread_id: "t" } },
    )) as { title?: string };
    expect(state.title).toBe("Capital Question");
    expect(built).toEqual([{ extra_body: { thinking: { type: "disabled" } }, reasoning_effort: "minimal" }]);
  });
});
