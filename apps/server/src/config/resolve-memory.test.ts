import { describe, expect, it } from "vitest";
import { parseConfigText } from "./load-config.js";

describe("memory: config", () => {
  it("defaults to DeerFlow's values, with no extraction model", () => {
    const memory = parseConfigText("storage:\n  data_dir: ./d\n").config.memory;
    expect(memory).toMatchObject({
      enabled: true,
      injectionEnabled: true,
      mode: "middleware",
      shutdownFlushTimeoutMs: 30_000,
      managerClass: "deermem",
      debounceMs: 30_000,
      queueMaxDepth: 1000,
      settings: {
        maxFacts: 100,
        factConfidenceThreshold: 0.7,
        maxInjectionTokens: 2000,
        guaranteedCategories: ["correction"],
      },
    });
    expect(memory?.modelName).toBeUndefined();
  });

  it("reads top-level DeerMem keys and lets backend_config win", () => {
    const text = [
      "models:\n  - { name: fast, model: m }",
      "memory:",
      "  mode: tool",
      "  injection_enabled: false",
      "  model_name: fast",
      "  max_facts: 10",
      "  debounce_seconds: 1.5",
      "  backend_config:",
      "    max_facts: 20",
      "    fact_confidence_threshold: 0.9",
      "    guaranteed_categories: [correction, goal]",
    ].join("\n");
    const memory = parseConfigText(text).config.memory;
    expect(memory).toMatchObject({ mode: "tool", injectionEnabled: false, modelName: "fast", debounceMs: 1500 });
    expect(memory?.settings).toMatchObject({
      maxFacts: 20,
      factConfidenceThreshold: 0.9,
      guaranteedCategories: ["correction", "goal"],
    });
  });

  it("names the key of a bad value", () => {
    expect(() => parseConfigText("memory:\n  max_facts: 0\n")).toThrow(/memory\.max_facts/);
    expect(() => parseConfigText("memory:\n  fact_confidence_threshold: 1.5\n")).toThrow(
      /memory\.fact_confidence_threshold/,
    );
    expect(() => parseConfigText("memory:\n  mode: magic\n")).toThrow(/memory\.mode/);
    expect(() => parseConfigText("memory:\n  storage_path: x\n")).toThrow(/memory/);
    expect(() => parseConfigText("memory:\n  model_name: nope\n")).toThrow(/memory\.model_name.*unknown model "nope"/);
  });

  it('takes a plugin backend (manager_class "<module>:<export>") with its own backend_config keys', () => {
    const text = [
      "memory:",
      '  manager_class: "./plugins/memory.js:createBackend"',
      "  backend_config:",
      "    base_url: http://memory.internal/v1",
      "    api_key: k-1",
      "    max_facts: 20",
    ].join("\n");
    const memory = parseConfigText(text).config.memory;
    expect(memory?.managerClass).toBe("./plugins/memory.js:createBackend");
    // DeerMem's keys stay policy settings; the rest are the plugin's options.
    expect(memory?.backendOptions).toEqual({ base_url: "http://memory.internal/v1", api_key: "k-1" });
    expect(memory?.settings.maxFacts).toBe(20);
  });

  it("names a manager_class that is neither built in nor a plugin, and a built-in backend's unknown keys", () => {
    expect(() => parseConfigText("memory:\n  manager_class: mem0\n")).toThrow(
      /memory\.manager_class.*neither deermem, noop nor a plugin/,
    );
    expect(() => parseConfigText("memory:\n  backend_config:\n    base_url: http://x\n")).toThrow(
      /memory\.backend_config\.base_url.*unknown key for manager_class deermem/,
    );
  });
});

describe("server.api_keys", () => {
  it("takes operator keys and keys of one user", () => {
    const text = 'server:\n  api_keys: ["operator-key", { key: "alice-key", user_id: alice }]\n';
    const server = parseConfigText(text).config.server;
    expect(server.apiKeys).toEqual(["operator-key", "alice-key"]);
    expect(server.apiKeyUsers).toEqual([{ key: "alice-key", userId: "alice", admin: false }]);
  });

  it("refuses a user key without a valid user id", () => {
    expect(() => parseConfigText('server:\n  api_keys: [{ key: "k" }]\n')).toThrow(/server\.api_keys/);
    expect(() => parseConfigText('server:\n  api_keys: [{ key: "k", user_id: "a/b" }]\n')).toThrow(/server\.api_keys/);
  });
});
