import { AIMessage, HumanMessage } from "@langchain/core/messages";
import { ChatOpenAI } from "@langchain/openai";
import { afterEach, describe, expect, it } from "vitest";
import type { ModelConfig } from "../config/index.js";
import { createChatModel, DemoChatModel, ModelError, ModelRegistry } from "./index.js";
import { PluginLoadError } from "../plugins/index.js";
import { tempDirs, writeFiles } from "../../test/support/temp-dir.js";

const tmp = tempDirs();
afterEach(() => tmp.cleanup());

const entry = (over: Partial<ModelConfig>): ModelConfig => ({
  name: "m",
  use: { kind: "openai" },
  supportsVision: false,
  supportsThinking: false,
  options: {},
  ...over,
});

describe("createChatModel", () => {
  it("creates ChatOpenAI for an OpenAI-compatible endpoint", async () => {
    const model = await createChatModel(
      entry({
        model: "qwen2.5",
        baseUrl: "http://127.0.0.1:9/v1",
        apiKey: "sk-test",
        temperature: 0.2,
        maxTokens: 512,
        timeoutMs: 30_000,
        maxRetries: 1,
      }),
      { env: {} },
    );
    expect(model).toBeInstanceOf(ChatOpenAI);
    const chat = model as ChatOpenAI;
    expect(chat.model).toBe("qwen2.5");
    expect(chat.temperature).toBe(0.2);
    expect(chat.maxTokens).toBe(512);
    expect(chat.timeout).toBe(30_000);
    expect(chat.apiKey).toBe("sk-test");
    expect(chat.clientConfig.baseURL).toBe("http://127.0.0.1:9/v1");
  });

  it("takes the key from OPENAI_API_KEY, and needs none for a local base_url", async () => {
    expect(
      ((await createChatModel(entry({ model: "gpt-4o" }), { env: { OPENAI_API_KEY: "sk-env" } })) as ChatOpenAI).apiKey,
    ).toBe("sk-env");
    expect(
      await createChatModel(entry({ model: "llama", baseUrl: "http://localhost:11434/v1" }), { env: {} }),
    ).toBeInstanceOf(ChatOpenAI);
  });

  it("fails clearly without a key", async () => {
    const err = await createChatModel(entry({ name: "gpt", model: "gpt-4o" }), { env: {} }).catch((e: unknown) => e);
    expect(ModelError.isInstance(err) && err.code).toBe("MODEL_CONFIG_INVALID");
    expect((err as Error).message).toBe(
      'Model "gpt": no api_key in the config and OPENAI_API_KEY is not set (set one, or base_url for a local endpoint)',
    );
  });

  it("creates the demo model", async () => {
    expect(await createChatModel(entry({ use: { kind: "demo" } }))).toBeInstanceOf(DemoChatModel);
  });

  it("loads a plugin with the entry's fields and options", async () => {
    const dir = await tmp.make();
    await writeFiles(dir, {
      "m.js": `import { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { AIMessage } from "@langchain/core/messages";
class Fixed extends BaseChatModel {
  constructor(input) { super({}); this.input = input; }
  _llmType() { return "fixed"; }
  bindTools() { return this; }
  async _generate() { return { generations: [{ text: "", message: new AIMessage(JSON.stringify(this.input)) }] }; }
}
export const create = (input) => new Fixed(input);
export const notAModel = () => ({ invoke() {} });`,
    });
    // The plugin resolves @langchain/core from the server's node_modules through a symlink.
    const { symlink, mkdir } = await import("node:fs/promises");
    await mkdir(`${dir}/node_modules/@langchain`, { recursive: true });
    await symlink(
      new URL("../../node_modules/@langchain/core", import.meta.url).pathname,
      `${dir}/node_modules/@langchain/core`,
    );
    const model = await createChatModel(
      entry({
        use: { kind: "plugin", use: "./m.js:create" },
        model: "x1",
        temperature: 0.5,
        options: { region: "eu" },
      }),
      { configDir: dir },
    );
    const out = (await model.invoke([new HumanMessage("hi")])) as AIMessage;
    expect(JSON.parse(String(out.content))).toEqual({ model: "x1", temperature: 0.5, region: "eu" });
    const err = await createChatModel(entry({ name: "bad", use: { kind: "plugin", use: "./m.js:notAModel" } }), {
      configDir: dir,
    }).catch((e: unknown) => e);
    expect(PluginLoadError.isInstance(err) && err.code).toBe("PLUGIN_WRONG_KIND");
    expect((err as Error).message).toBe(
      'Plugin "./m.js:notAModel" produced an object, not a chat model "bad": expected a LangChain chat model (with invoke and bindTools)',
    );
  });
});

describe("ModelRegistry", () => {
  const models = [
    entry({ name: "demo", use: { kind: "demo" } }),
    entry({ name: "gpt", model: "gpt-4o", apiKey: "sk" }),
  ];

  it("creates each model once and returns the default without a name", async () => {
    const registry = new ModelRegistry({ models, defaultModel: "demo", env: {} });
    expect(registry.names()).toEqual(["demo", "gpt"]);
    const a = await registry.get();
    expect(a).toBeInstanceOf(DemoChatModel);
    expect(await registry.get("demo")).toBe(a);
    expect(await registry.get("gpt")).toBeInstanceOf(ChatOpenAI);
  });

  it("rejects unknown names", async () => {
    expect(() => new ModelRegistry({ models, defaultModel: "nope" })).toThrow(
      'Default model "nope" is not configured (configured: demo, gpt)',
    );
    const err = await new ModelRegistry({ models, defaultModel: "demo" }).get("claude").catch((e: unknown) => e);
    expect(ModelError.isInstance(err) && err.code).toBe("MODEL_NOT_FOUND");
  });

  it("does not cache a failed creation", async () => {
    let calls = 0;
    const registry = new ModelRegistry({
      models,
      defaultModel: "demo",
      create: async () => {
        calls++;
        if (calls === 1) throw new Error("transient");
        return new DemoChatModel();
      },
    });
    await expect(registry.get()).rejects.toThrow("transient");
    expect(await registry.get()).toBeInstanceOf(DemoChatModel);
  });
});
