import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { describeConfig, loadConfig } from "./index.js";

const appDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

describe("config.example.yaml", () => {
  it("is a valid configuration", async () => {
    const loaded = await loadConfig({
      cwd: appDir,
      path: "config.example.yaml",
      env: { OPENAI_API_KEY: "sk-example-key-0000000000000000" },
    });
    expect(loaded.config.defaultModel).toBe("demo");
    expect(loaded.config.models.map((m) => m.name)).toEqual(["demo", "gpt-4o-mini"]);
    expect(loaded.config.runtime.checkpointer).toEqual({
      type: "file",
      path: path.join(appDir, ".deerflow-data", "checkpoints.sqlite"),
    });
    expect(describeConfig(loaded).join("\n")).not.toContain("sk-example-key-0000000000000000");
  });

  it("names OPENAI_API_KEY when it is missing", async () => {
    await expect(loadConfig({ cwd: appDir, path: "config.example.yaml", env: {} })).rejects.toThrow(
      'config.example.yaml: models[1].api_key: environment variable OPENAI_API_KEY is not set (referenced as "$OPENAI_API_KEY")',
    );
  });
});
