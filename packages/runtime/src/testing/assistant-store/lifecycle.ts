/** Creating, reading, updating (versions), `setLatest` and deleting assistants. */
import type { ConformanceExpect } from "@deerflow/kernel";
import { ISO_UTC, expectRuntimeError } from "../run-store/context.js";
import { assistantInput, tick, type AddAssistantTest } from "./context.js";

const alice = { owner: "alice" } as const;

export function lifecycleTests(test: AddAssistantTest, expect: ConformanceExpect): void {
  test("create stores version 1 with defaults and get returns it", async ([store]) => {
    const input = assistantInput({ graphId: "lead_agent" });
    const created = await store!.create(input);
    expect(created).toEqual({
      assistantId: input.assistantId,
      graphId: "lead_agent",
      owner: "alice",
      name: "lead_agent",
      description: null,
      config: {},
      context: {},
      metadata: {},
      version: 1,
      createdAt: created.createdAt,
      updatedAt: created.createdAt,
    });
    expect(created.createdAt).toMatch(ISO_UTC);
    expect(await store!.get(input.assistantId, alice)).toEqual(created);
    expect(await store!.get(input.assistantId, { allOwners: true })).toEqual(created);
    expect(await store!.get("missing", alice)).toBeUndefined();
  });

  test("create keeps every given field", async ([store]) => {
    const input = assistantInput({
      name: "Researcher",
      description: "Finds things",
      config: { configurable: { model: "m1" }, tags: ["a"], recursion_limit: 7 },
      context: { agent_name: "researcher", nested: { list: [1, "two", null] } },
      metadata: { team: "blue", n: 3 },
    });
    const created = await store!.create(input);
    expect(created).toMatchObject({
      name: "Researcher",
      description: "Finds things",
      config: input.config,
      context: input.context,
      metadata: input.metadata,
    });
  });

  test("create raises ASSISTANT_EXISTS, or returns the existing one with do_nothing for its owner only", async ([
    store,
  ]) => {
    const input = assistantInput({ name: "first" });
    const created = await store!.create(input);
    await expectRuntimeError(store!.create({ ...input, name: "second" }), "ASSISTANT_EXISTS");
    const again = await store!.create({ ...input, name: "second", ifExists: "do_nothing" });
    expect(again).toEqual(created);
    // Another owner never gets someone else's assistant back, even with do_nothing.
    await expectRuntimeError(store!.create({ ...input, owner: "bob", ifExists: "do_nothing" }), "ASSISTANT_EXISTS");
  });

  test("update writes a new version: metadata merged, config and context replaced, the rest kept", async ([store]) => {
    const input = assistantInput({
      name: "v1",
      description: "d1",
      config: { configurable: { a: 1 } },
      context: { x: 1, y: 2 },
      metadata: { keep: true, change: "old" },
    });
    const created = await store!.create(input);
    await tick();
    const updated = await store!.update(
      input.assistantId,
      { config: { tags: ["t"] }, context: { z: 3 }, metadata: { change: "new", added: 1 } },
      alice,
    );
    expect(updated).toMatchObject({
      version: 2,
      name: "v1",
      description: "d1",
      graphId: "agent",
      owner: "alice",
      config: { tags: ["t"] },
      context: { z: 3 },
      metadata: { keep: true, change: "new", added: 1 },
      createdAt: created.createdAt,
    });
    expect(updated.updatedAt > created.updatedAt).toBe(true);
    const renamed = await store!.update(input.assistantId, { name: "v3", description: null, graphId: "other" }, alice);
    expect(renamed).toMatchObject({ version: 3, name: "v3", description: null, graphId: "other", context: { z: 3 } });
    expect(await store!.get(input.assistantId, alice)).toEqual(renamed);
  });

  test("listVersions returns every version newest first, paginated and filtered by metadata", async ([store]) => {
    const input = assistantInput({ metadata: { step: 1 } });
    await store!.create(input);
    for (let step = 2; step <= 4; step++) {
      await store!.update(input.assistantId, { metadata: { step, even: step % 2 === 0 } }, alice);
    }
    const all = await store!.listVersions(input.assistantId, {}, alice);
    expect(all.map((v) => v.version)).toEqual([4, 3, 2, 1]);
    expect(all[3]).toMatchObject({ assistantId: input.assistantId, graphId: "agent", metadata: { step: 1 } });
    expect(all[0]!.createdAt).toMatch(ISO_UTC);
    const page = await store!.listVersions(input.assistantId, { limit: 2, offset: 1 }, alice);
    expect(page.map((v) => v.version)).toEqual([3, 2]);
    const even = await store!.listVersions(input.assistantId, { metadata: { even: true } }, alice);
    expect(even.map((v) => v.version)).toEqual([4, 2]);
  });

  test("setLatest makes an old version current and later updates number after the highest", async ([store]) => {
    const input = assistantInput({ name: "one", context: { n: 1 }, metadata: { tag: "one" } });
    await store!.create(input);
    await store!.update(input.assistantId, { name: "two", context: { n: 2 }, metadata: { tag: "two" } }, alice);
    const back = await store!.setLatest(input.assistantId, 1, alice);
    expect(back).toMatchObject({ version: 1, name: "one", context: { n: 1 }, metadata: { tag: "one" } });
    expect(await store!.get(input.assistantId, alice)).toEqual(back);
    // The versions themselves are untouched.
    expect((await store!.listVersions(input.assistantId, {}, alice)).map((v) => v.version)).toEqual([2, 1]);
    const next = await store!.update(input.assistantId, { metadata: { extra: 1 } }, alice);
    // Version 3 starts from the current (version 1) content, not from version 2.
    expect(next).toMatchObject({ version: 3, name: "one", context: { n: 1 }, metadata: { tag: "one", extra: 1 } });
    await expectRuntimeError(store!.setLatest(input.assistantId, 99, alice), "ASSISTANT_NOT_FOUND");
    await expectRuntimeError(store!.setLatest(input.assistantId, 0, alice), "INVALID_ARGUMENT");
  });

  test("delete removes the assistant and its versions; a second delete is ASSISTANT_NOT_FOUND", async ([store]) => {
    const input = assistantInput();
    await store!.create(input);
    await store!.update(input.assistantId, { name: "x" }, alice);
    await store!.delete(input.assistantId, alice);
    expect(await store!.get(input.assistantId, alice)).toBeUndefined();
    await expectRuntimeError(store!.delete(input.assistantId, alice), "ASSISTANT_NOT_FOUND");
    await expectRuntimeError(store!.listVersions(input.assistantId, {}, alice), "ASSISTANT_NOT_FOUND");
    await expectRuntimeError(store!.update(input.assistantId, {}, alice), "ASSISTANT_NOT_FOUND");
    // The id is free again, and the new assistant starts at version 1.
    expect((await store!.create(input)).version).toBe(1);
  });

  test("records are copies: mutating a result or an input does not reach the store", async ([store]) => {
    const input = assistantInput({ metadata: { list: [1] }, context: { k: "v" } });
    const created = await store!.create(input);
    (input.metadata!["list"] as number[]).push(2);
    (created.metadata["list"] as number[]).push(3);
    created.context["k"] = "changed";
    const fetched = await store!.get(input.assistantId, alice);
    expect(fetched!.metadata).toEqual({ list: [1] });
    expect(fetched!.context).toEqual({ k: "v" });
  });

  test("a closed store fails with CLOSED", async ([store]) => {
    const input = assistantInput();
    await store!.create(input);
    await store!.close();
    await store!.close();
    await expectRuntimeError(store!.get(input.assistantId, alice), "CLOSED");
    await expectRuntimeError(store!.create(assistantInput()), "CLOSED");
  });
}
