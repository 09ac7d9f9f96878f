// The example plugin tool: the plugin-tool conformance kit, and loaded through config.yaml's tools: by path.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { pluginToolConformance } from "@deerflow/tools/testing";
import type { StructuredToolInterface } from "@langchain/core/tools";
import { describe, expect, it } from "vitest";
import { configTexts } from "../../test/support/config-text.js";
import { createConfiguredToolDeps } from "../agent/configured-tools.js";
import { silentLogger } from "../logger.js";

const EXAMPLE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../examples/plugin-example/index.js");
const { createWordCountTool } = (await import(EXAMPLE)) as {
  createWordCountTool: (o?: { max_chars?: number }) => StructuredToolInterface;
};

pluginToolConformance({
  name: "example word_count",
  makeTool: () => createWordCountTool(),
  validInput: { text: "three little words" },
  checkResult: (text) => expect(JSON.parse(text)).toEqual({ words: 3, characters: 18 }),
  describe,
  it,
  expect,
});

const cfg = configTexts();

describe("examples/plugin-example tool through config.yaml", () => {
  it("is loaded by path, given the entry's keys, and offered in its group", async () => {
    const loaded = await cfg.load(
      [
        "models:",
        "  - name: demo",
        "    use: demo",
        "tools:",
        "  - name: word_count",
        "    group: text",
        `    use: "${EXAMPLE}:createWordCountTool"`,
        "    max_chars: 10",
      ].join("\n"),
    );
    const deps = await createConfiguredToolDeps(loaded, { logger: silentLogger, env: {}, cwd: loaded.dir });
    const [wc] = deps.tools(["text"]);
    expect(wc?.name).toBe("word_count");
    expect(await wc?.invoke({ text: "short one" })).toBe('{"words":2,"characters":9}');
    expect(await wc?.invoke({ text: "far too long for ten" })).toBe("Error: the text is longer than 10 characters");
    expect(deps.tools(["web"])).toEqual([]);
  });
});
