import { AllowlistProvider } from "@deerflow/agent";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { configTexts } from "../../test/support/config-text.js";
import { safetyMiddlewareOptions } from "./safety-deps.js";

const configs = configTexts();

const EXAMPLE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../examples/plugin-example/index.js");

async function options(yaml: string, files: Record<string, string> = {}) {
  const loaded = await configs.load(yaml, files);
  return safetyMiddlewareOptions(loaded.config, { cwd: loaded.dir, configDir: loaded.baseDir });
}

describe("safetyMiddlewareOptions", () => {
  it("builds the built-in allowlist provider and passes the approval list", async () => {
    const o = await options(
      "guardrails: { enabled: true, provider: { use: allowlist, config: { denied_tools: [bash] } }, require_approval: [write_file] }\n",
    );
    expect(o.guardrails?.provider).toBeInstanceOf(AllowlistProvider);
    expect(await o.guardrails?.provider?.evaluate({ toolName: "bash", toolInput: {}, timestamp: "" })).toMatchObject({
      allow: false,
    });
    expect(o.guardrails?.requireApproval).toEqual(["write_file"]);
    expect(o.readBeforeWrite).toEqual({ enabled: true });
  });

  it("loads the example package's guardrail provider with its config, through the kernel's loader", async () => {
    const o = await options(
      `guardrails: { enabled: true, provider: { use: '${EXAMPLE}:CommandWordGuardrail', config: { blocked_words: [rm] } } }\n`,
    );
    const provider = o.guardrails?.provider;
    expect(provider?.name).toBe("command-words");
    expect(await provider?.evaluate({ toolName: "bash", toolInput: { command: "rm -rf /" }, timestamp: "" })).toEqual({
      allow: false,
      reasons: [{ code: "example.command_word", message: "commands containing 'rm' are not allowed" }],
    });
    expect(await provider?.evaluate({ toolName: "bash", toolInput: { command: "ls" }, timestamp: "" })).toEqual({
      allow: true,
    });
  });

  it("refuses a plugin that is not a provider", async () => {
    await expect(
      options("guardrails: { enabled: true, provider: { use: './bad.mjs:Bad' } }\n", {
        "bad.mjs": "export class Bad {}",
      }),
    ).rejects.toThrow("not a guardrail provider: expected an object with name and evaluate(request)");
  });

  it("has no provider when guardrails are off", async () => {
    expect((await options("agent: { name: X }\n")).guardrails?.provider).toBeUndefined();
  });
});
