/**
 * `agentStoreConformance`: the behaviour every `AgentStore` shares — round
 * trips of configs and SOUL.md, lowercase names, conflicts (also between
 * concurrent creators), partial updates that keep the other half, per-user
 * isolation, hostile names and user ids, the default SOUL.md and profiles.
 */
import { randomUUID } from "node:crypto";
import { errorCodeOf as codeOf, freshSubjectTest, type ConformanceRunner } from "@deerflow/kernel";
import { agentConfigOf } from "../custom-agents/agent-config.js";
import type { AgentStore } from "../custom-agents/agent-store.js";

/** A store made for one test. */
export interface AgentStoreHandle {
  readonly store: AgentStore;
  /** Called after the test. */
  readonly cleanup?: () => Promise<void>;
}

/** Options of {@link agentStoreConformance}. */
export interface AgentStoreConformanceOptions extends ConformanceRunner {
  /** Suite name, e.g. the class name. */
  readonly name: string;
  /** A store for one test (tests use fresh random user ids, so a shared store is fine too). */
  readonly makeStore: () => Promise<AgentStoreHandle>;
  /** Multiplies the per-test timeout (default 1; 10 s each). */
  readonly timeoutScale?: number;
}

const HOSTILE_NAMES = ["../escape", "a/b", "a\\b", "", ".", "..", "x\u0000y", "name with space", "x".repeat(500)];
const HOSTILE_USERS = ["../../etc", "a/b", "", ".", "..", "u\u0000"];

/**
 * Registers the suite with the injected test functions.
 *
 * @param options - name, `makeStore`, `describe`, `it`, `expect`
 * @example
 * ```ts
 * import { describe, expect, it } from "vitest";
 * import { InMemoryStore } from "@langchain/langgraph";
 * import { StoreAgentStore } from "@deerflow/agent";
 * import { agentStoreConformance } from "@deerflow/agent/testing";
 *
 * agentStoreConformance({
 *   name: "StoreAgentStore",
 *   makeStore: async () => ({ store: new StoreAgentStore({ store: new InMemoryStore() }) }),
 *   describe, it, expect,
 * });
 * ```
 */
export function agentStoreConformance(options: AgentStoreConformanceOptions): void {
  const { describe, expect } = options;
  const timeout = 10_000 * (options.timeoutScale ?? 1);
  const user = (): string => `u-${randomUUID().slice(0, 8)}`;
  const it = freshSubjectTest(options.it, options.makeStore, (handle) => handle.store, timeout);

  describe(`agentStoreConformance: ${options.name}`, () => {
    it("an unknown user has no agents", async (s) => {
      const u = user();
      expect(await s.list(u)).toEqual([]);
      expect(await s.get(u, "nobody")).toBeUndefined();
      expect(await s.getSoul(u, "nobody")).toBeUndefined();
      expect(await s.exists(u, "nobody")).toBe(false);
    });

    it("create stores the config and SOUL.md under the lowercase name", async (s) => {
      const u = user();
      const config = agentConfigOf("Code-Reviewer", {
        description: "Reviews code",
        model: "fast",
        tool_groups: ["web"],
        skills: [],
        model_settings: { temperature: 0.2, max_tokens: 512 },
        thinking_enabled: false,
        reasoning_effort: "high",
      });
      const stored = await s.create(u, config, "# Soul\nBe terse.");
      expect(stored.name).toBe("code-reviewer");
      const got = await s.get(u, "CODE-reviewer");
      expect(got).toMatchObject({
        name: "code-reviewer",
        description: "Reviews code",
        model: "fast",
        tool_groups: ["web"],
        skills: [],
        model_settings: { temperature: 0.2, max_tokens: 512 },
        thinking_enabled: false,
        reasoning_effort: "high",
      });
      expect(await s.getSoul(u, "code-reviewer")).toBe("# Soul\nBe terse.");
      expect(await s.exists(u, "Code-Reviewer")).toBe(true);
    });

    it("unset fields read back as null; skills null and [] stay distinct", async (s) => {
      const u = user();
      await s.create(u, agentConfigOf("plain", {}), "soul");
      await s.create(u, agentConfigOf("none", { skills: [] }), "soul");
      expect(await s.get(u, "plain")).toMatchObject({
        model: null,
        tool_groups: null,
        skills: null,
        model_settings: null,
      });
      expect((await s.get(u, "none"))?.skills).toEqual([]);
    });

    it("list is sorted by name", async (s) => {
      const u = user();
      for (const n of ["zeta", "alpha", "mid"]) await s.create(u, agentConfigOf(n, {}), n);
      expect((await s.list(u)).map((a) => a.name)).toEqual(["alpha", "mid", "zeta"]);
    });

    it("a second create of a name (any case) is AGENT_EXISTS and keeps the first", async (s) => {
      const u = user();
      await s.create(u, agentConfigOf("dup", { description: "first" }), "first soul");
      expect(await codeOf(s.create(u, agentConfigOf("DUP", { description: "second" }), "second soul"))).toBe(
        "AGENT_EXISTS",
      );
      expect((await s.get(u, "dup"))?.description).toBe("first");
      expect(await s.getSoul(u, "dup")).toBe("first soul");
    });

    it("concurrent creators of one name: exactly one wins", async (s) => {
      const u = user();
      const results = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          codeOf(s.create(u, agentConfigOf("race", { description: `d${i}` }), `s${i}`)),
        ),
      );
      expect(results.filter((r) => r === "resolved")).toHaveLength(1);
      expect(results.filter((r) => r === "AGENT_EXISTS")).toHaveLength(7);
      const winner = results.indexOf("resolved");
      expect(await s.getSoul(u, "race")).toBe(`s${winner}`);
    });

    it("users never see each other's agents", async (s) => {
      const a = user();
      const b = user();
      await s.create(a, agentConfigOf("private", {}), "a's soul");
      expect(await s.list(b)).toEqual([]);
      expect(await s.get(b, "private")).toBeUndefined();
      expect(await s.getSoul(b, "private")).toBeUndefined();
      expect(await codeOf(s.delete(b, "private"))).toBe("AGENT_NOT_FOUND");
      expect(await codeOf(s.update(b, "private", { soul: "hijack" }))).toBe("AGENT_NOT_FOUND");
      expect(await s.getSoul(a, "private")).toBe("a's soul");
      // b may have an agent of the same name.
      await s.create(b, agentConfigOf("private", {}), "b's soul");
      expect(await s.getSoul(a, "private")).toBe("a's soul");
    });

    it("update of a missing agent is AGENT_NOT_FOUND; with upsert it creates", async (s) => {
      const u = user();
      expect(await codeOf(s.update(u, "ghost", { soul: "x" }))).toBe("AGENT_NOT_FOUND");
      expect(await s.exists(u, "ghost")).toBe(false);
      await s.update(
        u,
        "Ghost",
        { soul: "now here", config: agentConfigOf("ghost", { description: "d" }) },
        { upsert: true },
      );
      expect(await s.getSoul(u, "ghost")).toBe("now here");
      expect((await s.get(u, "ghost"))?.description).toBe("d");
    });

    it("a soul-only update keeps the config, a config-only update keeps the soul", async (s) => {
      const u = user();
      await s.create(u, agentConfigOf("half", { description: "desc", model: "m1" }), "old soul");
      await s.update(u, "half", { soul: "new soul" });
      expect(await s.get(u, "half")).toMatchObject({ description: "desc", model: "m1" });
      expect(await s.getSoul(u, "half")).toBe("new soul");
      await s.update(u, "half", { config: agentConfigOf("half", { description: "changed" }) });
      expect(await s.getSoul(u, "half")).toBe("new soul");
      expect(await s.get(u, "half")).toMatchObject({ description: "changed", model: null });
    });

    it("keys the store does not manage survive an update", async (s) => {
      const u = user();
      const github = { installation_id: 7, bindings: [{ repo: "o/r", triggers: {} }] };
      await s.create(u, agentConfigOf("kept", {}, { github }), "soul");
      const current = await s.get(u, "kept");
      expect(current?.extra).toEqual({ github });
      await s.update(u, "kept", { config: { ...(current as NonNullable<typeof current>), description: "new" } });
      expect((await s.get(u, "kept"))?.extra).toEqual({ github });
    });

    it("delete removes the agent; a second delete is AGENT_NOT_FOUND; the name is free again", async (s) => {
      const u = user();
      await s.create(u, agentConfigOf("gone", {}), "soul");
      await s.delete(u, "GONE");
      expect(await s.get(u, "gone")).toBeUndefined();
      expect(await s.getSoul(u, "gone")).toBeUndefined();
      expect(await s.list(u)).toEqual([]);
      expect(await codeOf(s.delete(u, "gone"))).toBe("AGENT_NOT_FOUND");
      await s.create(u, agentConfigOf("gone", {}), "again");
      expect(await s.getSoul(u, "gone")).toBe("again");
    });

    it("hostile names are refused with AGENT_NAME_INVALID by every method", async (s) => {
      const u = user();
      for (const name of HOSTILE_NAMES) {
        expect(await codeOf(s.get(u, name)), name).toBe("AGENT_NAME_INVALID");
        expect(await codeOf(s.getSoul(u, name)), name).toBe("AGENT_NAME_INVALID");
        expect(await codeOf(s.exists(u, name)), name).toBe("AGENT_NAME_INVALID");
        expect(await codeOf(s.create(u, { ...agentConfigOf("x", {}), name }, "soul")), name).toBe("AGENT_NAME_INVALID");
        expect(await codeOf(s.update(u, name, { soul: "s" }, { upsert: true })), name).toBe("AGENT_NAME_INVALID");
        expect(await codeOf(s.delete(u, name)), name).toBe("AGENT_NAME_INVALID");
      }
      expect(await s.list(u)).toEqual([]);
    });

    it("hostile user ids are refused", async (s) => {
      for (const u of HOSTILE_USERS) {
        expect(await codeOf(s.list(u)), JSON.stringify(u)).toBe("CONFIG_INVALID");
        expect(await codeOf(s.create(u, agentConfigOf("x", {}), "soul")), JSON.stringify(u)).toBe("CONFIG_INVALID");
        expect(await codeOf(s.setUserProfile(u, "me")), JSON.stringify(u)).toBe("CONFIG_INVALID");
      }
    });

    it("user ids with dots and @ work and stay apart", async (s) => {
      const a = `first.last@example.com-${randomUUID().slice(0, 4)}`;
      const b = a.replace(".", "_");
      await s.create(a, agentConfigOf("mine", {}), "soul");
      expect((await s.list(a)).map((x) => x.name)).toEqual(["mine"]);
      expect(await s.list(b)).toEqual([]);
    });

    it("the default SOUL.md and each user's profile round-trip", async (s) => {
      const a = user();
      const b = user();
      await s.setDefaultSoul("default soul");
      expect(await s.getDefaultSoul()).toBe("default soul");
      expect(await s.getUserProfile(a)).toBeUndefined();
      await s.setUserProfile(a, "I am A");
      expect(await s.getUserProfile(a)).toBe("I am A");
      expect(await s.getUserProfile(b)).toBeUndefined();
      await s.setUserProfile(a, "");
      expect(await s.getUserProfile(a)).toBeUndefined();
      // A profile is no agent.
      expect(await s.list(a)).toEqual([]);
    });
  });
}
