import path from "node:path";
import { createLeadAgent } from "@deerflow/agent";
import { HostRunner } from "@deerflow/sandbox";
import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { MemorySaver } from "@langchain/langgraph";
import { afterEach, describe, expect, it } from "vitest";
import { createLeadAgentDeps } from "./index.js";
import { loadConfig, ServerConfigError } from "../config/index.js";
import { DemoChatModel, ModelError } from "../models/index.js";
import { SKILL_MD } from "../../test/support/lead-agent-env.js";
import { tempDirs, writeFiles } from "../../test/support/temp-dir.js";

const tmp = tempDirs();
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
  await tmp.cleanup();
});

async function resourcesFor(files: Record<string, string>, env: NodeJS.ProcessEnv = {}) {
  const dir = await tmp.make();
  await writeFiles(dir, files);
  const resources = await createLeadAgentDeps(await loadConfig({ cwd: dir, env }), {
    cwd: dir,
    env,
    runner: new HostRunner(),
  });
  cleanups.push(() => resources.close());
  return { dir, resources };
}

describe("createLeadAgentDeps", () => {
  it("runs the embedded defaults end to end: demo model, local sandbox, no skills folder", async () => {
    const { dir, resources } = await resourcesFor({});
    expect(resources.catalog).toBeUndefined();
    expect(resources.deps.skills).toBeUndefined();
    expect(await resources.models.get()).toBeInstanceOf(DemoChatModel);
    expect(resources.deps.subagents?.registry.list().map((s) => s.name)).toEqual(["general-purpose"]);
    const agent = await createLeadAgent({ ...resources.deps, checkpointer: new MemorySaver() });
    const out = await agent.invoke(
      { messages: [new HumanMessage("list my workspace")] },
      { configurable: { thread_id: "t1" } },
    );
    const messages = out.messages as BaseMessage[];
    expect(messages.find((m) => ToolMessage.isInstance(m))?.content).toBe("(empty)");
    expect((messages.at(-1) as AIMessage).content).toContain("Listed /mnt/user-data/workspace");
    // Thread folders live under the data dir.
    expect(
      path.relative(
        dir,
        (resources.sandboxProvider as unknown as { threadPaths(t: string): { outputs: string } }).threadPaths("t1")
          .outputs,
      ),
    ).toBe(path.join(".deerflow-data", "users", "default", "threads", "t1", "user-data", "outputs"));
  });

  it("gives each user their own skills: the operator owns skills/custom, others see it as legacy and mount their own", async () => {
    const { dir, resources } = await resourcesFor({
      "skills/public/deep-research/SKILL.md": SKILL_MD,
      "skills/custom/team-notes/SKILL.md": SKILL_MD.replace("deep-research", "team-notes"),
      "config.yaml": "sandbox:\n  allow_host_bash: true\nskills:\n  skill_manage:\n    enabled: true\n",
    });
    const skills = resources.deps.skills;
    const listed = async (user: string) =>
      (await skills?.forUser?.(user).source.list())?.map((s) => `${s.category}:${s.name}`);
    expect(await listed("default")).toEqual(["public:deep-research", "custom:team-notes"]);
    expect(await listed("alice")).toEqual(["public:deep-research", "legacy:team-notes"]);
    expect(skills?.skillManage?.customRoot).toBe(path.join(dir, "skills", "custom"));
    expect(skills?.forUser?.("alice").skillManage?.customRoot).toBe(
      path.join(dir, ".deerflow-data", "users", "alice", "skills", "custom"),
    );
    const sandbox = await resources.sandboxProvider.acquire("t1", "alice");
    expect(
      (sandbox as unknown as { mounts: { virtualPath: string; hostPath: string }[] }).mounts
        .filter((m) => m.virtualPath.startsWith("/mnt/skills"))
        .map((m) => [m.virtualPath, path.relative(dir, m.hostPath)]),
    ).toEqual([
      ["/mnt/skills/public", path.join("skills", "public")],
      ["/mnt/skills/custom", path.join(".deerflow-data", "users", "alice", "skills", "custom")],
      ["/mnt/skills/legacy", path.join("skills", "custom")],
    ]);
  });

  it("mounts the skills folder and shows its skills in the prompt", async () => {
    const { resources } = await resourcesFor({
      "skills/public/deep-research/SKILL.md": SKILL_MD,
      "config.yaml": "sandbox:\n  allow_host_bash: true\n",
    });
    expect((await resources.catalog?.list())?.map((s) => s.name)).toEqual(["deep-research"]);
    expect(resources.deps.subagents?.registry.list().map((s) => s.name)).toEqual(["general-purpose", "bash"]);
    const agent = await createLeadAgent({ ...resources.deps, checkpointer: new MemorySaver() });
    const out = await agent.invoke(
      { messages: [new HumanMessage("research the printing press")] },
      { configurable: { thread_id: "t2" } },
    );
    const read = (out.messages as BaseMessage[]).find((m) => ToolMessage.isInstance(m));
    expect(String(read?.content)).toContain("# Deep research");
  });

  it("fails when a configured skills folder is missing", async () => {
    const dir = await tmp.make();
    await writeFiles(dir, { "config.yaml": "skills:\n  path: ./nope\n" });
    const err = await createLeadAgentDeps(await loadConfig({ cwd: dir, env: {} }), { runner: new HostRunner() }).catch(
      (e: unknown) => e,
    );
    expect(ServerConfigError.isInstance(err) && err.code).toBe("CONFIG_INVALID");
    expect((err as Error).message).toBe(`config.yaml: skills.path: folder not found: ${path.join(dir, "nope")}`);
  });

  it("creates every model up front, so a bad entry fails at startup", async () => {
    const dir = await tmp.make();
    await writeFiles(dir, {
      "config.yaml": "models:\n  - name: demo\n    use: demo\n  - name: gpt\n    model: gpt-4o\n",
    });
    const err = await createLeadAgentDeps(await loadConfig({ cwd: dir, env: {} }), {
      env: {},
      runner: new HostRunner(),
    }).catch((e: unknown) => e);
    expect(ModelError.isInstance(err) && err.code).toBe("MODEL_CONFIG_INVALID");
  });

  it("loads a sandbox provider plugin with its options", async () => {
    const plugin = `export function createProvider(options) {
  const calls = [];
  return { options, calls, async acquire(t) { calls.push(t); throw new Error("not in this test"); }, get() {}, async release() {}, async shutdown() {} };
}`;
    const { resources } = await resourcesFor({
      "sandbox.js": plugin,
      "config.yaml":
        'sandbox:\n  use: "./sandbox.js:createProvider"\n  options:\n    region: eu-west\n  mounts:\n    - host_path: /srv/data\n      container_path: /mnt/data\n      read_only: true\n',
    });
    const provider = resources.sandboxProvider as unknown as { options: Record<string, unknown> };
    expect(provider.options["region"]).toBe("eu-west");
    expect(provider.options["logger"]).toBeDefined();
    expect(resources.isolated).toBe(true);
    expect(resources.deps.sandboxTools?.readOnlyPaths).toEqual(["/mnt/skills", "/mnt/data"]);
  });
});
