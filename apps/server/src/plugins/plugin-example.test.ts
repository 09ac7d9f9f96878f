import fs from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createLeadAgent } from "@deerflow/agent";
import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import { MemorySaver } from "@langchain/langgraph";
import { afterEach, describe, expect, it } from "vitest";
import { createLeadAgentDeps } from "../agent/index.js";
import { loadConfig } from "../config/index.js";
import { SKILL_MD } from "../../test/support/lead-agent-env.js";
import { tempDirs, writeFiles } from "../../test/support/temp-dir.js";

const EXAMPLE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../examples/plugin-example");

const tmp = tempDirs();
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
  await tmp.cleanup();
});

/** A deployment folder whose config.yaml uses the example package by package name and by path. */
async function deployment(): Promise<string> {
  const dir = await tmp.make();
  await fs.mkdir(path.join(dir, "node_modules"), { recursive: true });
  await fs.symlink(EXAMPLE, path.join(dir, "node_modules", "deerflow-plugin-example"));
  await writeFiles(dir, {
    "skills/public/deep-research/SKILL.md": SKILL_MD,
    "config.yaml": [
      "models:",
      "  - name: echo",
      '    use: "deerflow-plugin-example:createEchoChatModel"',
      "    options:",
      "      prefix: Parrot",
      "sandbox:",
      "  allow_host_bash: true",
      "skills:",
      "  scanners:",
      "    - static",
      `    - "${path.join(EXAMPLE, "index.js")}:KeywordBlockScanner"`,
      "  skill_manage:",
      "    enabled: true",
    ].join("\n"),
  });
  return dir;
}

const skillMd = (body: string) =>
  `---\nname: my-notes\ndescription: Write meeting notes. Use for transcripts.\n---\n\n${body}\n`;

describe("examples/plugin-example through config.yaml", () => {
  it("uses the example chat model as the configured model", async () => {
    const dir = await deployment();
    const loaded = await loadConfig({ cwd: dir, env: {} });
    const resources = await createLeadAgentDeps(loaded, { cwd: dir, env: {} });
    cleanups.push(() => resources.close());
    const agent = await createLeadAgent({ ...resources.deps, checkpointer: new MemorySaver() });
    const out = await agent.invoke(
      { messages: [new HumanMessage("hello plugin")] },
      { configurable: { thread_id: "t-echo" } },
    );
    expect((out.messages as BaseMessage[]).at(-1)?.content).toBe("Parrot: hello plugin");
  });

  it("runs the example scanner on skill_manage writes", async () => {
    const dir = await deployment();
    const resources = await createLeadAgentDeps(await loadConfig({ cwd: dir, env: {} }), { cwd: dir, env: {} });
    cleanups.push(() => resources.close());
    const model = fakeModel()
      .respondWithTools([
        {
          name: "skill_manage",
          args: { action: "create", name: "my-notes", content: skillMd("FORBIDDEN-EXAMPLE steps") },
          id: "c1",
        },
      ])
      .respondWithTools([
        {
          name: "skill_manage",
          args: { action: "create", name: "my-notes", content: skillMd("Decisions first.") },
          id: "c2",
        },
      ])
      .respond(new AIMessage("Saved."));
    const deps = { ...resources.deps, models: { defaultModel: "fake", has: () => true, get: async () => model } };
    const agent = await createLeadAgent({ ...deps, checkpointer: new MemorySaver() });
    const out = await agent.invoke(
      { messages: [new HumanMessage("save my notes skill")] },
      { configurable: { thread_id: "t-scan" } },
    );
    const results = (out.messages as BaseMessage[])
      .filter((m): m is ToolMessage => ToolMessage.isInstance(m))
      .map((m) => String(m.content));
    expect(results[0]).toMatch(/^Error: Static security scan blocked skill 'my-notes'/);
    expect(results[0]).toContain("example-keyword");
    expect(results[1]).toBe("Created custom skill 'my-notes'.");
    expect(await fs.readFile(path.join(dir, "skills", "custom", "my-notes", "SKILL.md"), "utf8")).toContain(
      "Decisions first.",
    );
  });
});
