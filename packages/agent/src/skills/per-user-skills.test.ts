import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { LocalSandboxProvider, createDefaultRunner } from "@deerflow/sandbox";
import { UserSkillsStorage } from "@deerflow/skills";
import { AIMessage, HumanMessage, SystemMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import { MemorySaver } from "@langchain/langgraph";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createLeadAgent, staticModels } from "../index.js";

const ALICE_SKILL =
  "---\nname: alice-notes\ndescription: Alice's private notes. Use when alice asks for her notes.\n---\n\n# Notes\n";

let tmp: string;
let storage: UserSkillsStorage;
let provider: LocalSandboxProvider;
beforeEach(async () => {
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), "agent-user-skills-"));
  const root = path.join(tmp, "skills");
  await fs.mkdir(path.join(root, "public", "deep-research"), { recursive: true });
  await fs.writeFile(
    path.join(root, "public", "deep-research", "SKILL.md"),
    "---\nname: deep-research\ndescription: Research deeply. Use for research.\n---\n",
  );
  storage = new UserSkillsStorage({ root, dataDir: path.join(tmp, "data"), staticScanner: null });
  provider = new LocalSandboxProvider({
    baseDir: path.join(tmp, "data"),
    runner: await createDefaultRunner({ allowHostBash: true }),
    userSkillsMounts: (user) => storage.forUser(user).mounts,
  });
});
afterEach(async () => {
  await provider.shutdown();
  await fs.rm(tmp, { recursive: true, force: true });
});

const systemOf = (model: ReturnType<typeof fakeModel>, call: number): string => {
  const first = (model.calls[call]?.messages as BaseMessage[] | undefined)?.[0];
  return first !== undefined && SystemMessage.isInstance(first) ? first.text : "";
};
const toolTexts = (messages: readonly BaseMessage[]) =>
  messages.filter((m): m is ToolMessage => ToolMessage.isInstance(m)).map((m) => String(m.content));

describe("lead agent with per-user skills", () => {
  it("gives each run its user's skills: skill_manage, prompt section and /mnt/skills", async () => {
    const model = fakeModel()
      .respondWithTools([
        { name: "skill_manage", args: { action: "create", name: "alice-notes", content: ALICE_SKILL }, id: "c1" },
      ])
      .respond(new AIMessage("Created."))
      .respond(new AIMessage("Hello alice."))
      .respondWithTools([{ name: "read_file", args: { path: "/mnt/skills/custom/alice-notes/SKILL.md" }, id: "c2" }])
      .respond(new AIMessage("Nothing there."));
    const agent = await createLeadAgent({
      models: staticModels({ fake: model }),
      checkpointer: new MemorySaver(),
      sandboxProvider: provider,
      skills: {
        source: storage.forUser("default").catalog,
        skillManage: storage.forUser("default").store,
        forUser: (user) => {
          const { catalog, store } = storage.forUser(user);
          return { source: catalog, skillManage: store };
        },
        promptMode: "full",
      },
    });
    const runAs = async (user: string, thread: string, text: string) => {
      const cfg = { configurable: { thread_id: thread, user_id: user } };
      await agent.invoke({ messages: [new HumanMessage(text)] }, cfg);
      return (await agent.graph.getState(cfg)).values.messages as BaseMessage[];
    };

    expect(toolTexts(await runAs("alice", "t-a", "save my notes"))).toEqual(["Created custom skill 'alice-notes'."]);
    expect(await storage.forUser("alice").store.exists("alice-notes")).toBe(true);
    expect(await storage.forUser("bob").store.exists("alice-notes")).toBe(false);
    expect(await storage.forUser("default").store.exists("alice-notes")).toBe(false);

    await runAs("alice", "t-a2", "hi");
    expect(systemOf(model, 2)).toContain("<location>/mnt/skills/custom/alice-notes/SKILL.md</location>");

    const bob = await runAs("bob", "t-b", "read alice's notes");
    expect(systemOf(model, 3)).toContain("deep-research");
    expect(systemOf(model, 3)).not.toContain("alice-notes");
    expect(toolTexts(bob)[0]).toMatch(/^Error: .*not found/i);
    // Alice's own sandbox reads it.
    const mine = await provider.acquire("t-a", "alice");
    expect(await mine.readFile("/mnt/skills/custom/alice-notes/SKILL.md")).toBe(ALICE_SKILL);
  });
});
