/** Hostile input and concurrent writers. */
import type { ConformanceExpect } from "@deerflow/kernel";
import type { AssistantStore } from "../../assistants/assistant-store.js";
import { describeError, expectRuntimeError, settle } from "../run-store/context.js";
import { assistantInput, type AddAssistantTest } from "./context.js";

const alice = { owner: "alice" } as const;

/** JSON with object keys sorted (PostgreSQL's `jsonb` does not keep key order). */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    typeof v === "object" && v !== null && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

/** The store of caller `i`: round robin over the instances (one store: always it). */
function pick(stores: readonly AssistantStore[], i: number): AssistantStore {
  return stores[i % stores.length]!;
}

export function hostileTests(test: AddAssistantTest, expect: ConformanceExpect): void {
  test("hostile metadata round-trips as data: SQL, LIKE and JSON-path characters, __proto__, deep nesting", async ([
    store,
  ]) => {
    let deep: Record<string, unknown> = { leaf: "bottom" };
    for (let i = 0; i < 50; i++) deep = { d: deep };
    const metadata = {
      "'; DROP TABLE assistants; --": "x",
      "a.b": { "$.c": "%_\\" },
      "{}": [null, true, 1.5, "é😀"],
      ["__proto__"]: { polluted: true },
      deep,
    };
    const input = assistantInput({ metadata: JSON.parse(JSON.stringify(metadata)) as Record<string, unknown> });
    // JSON.parse makes "__proto__" an own key (an object literal would set the prototype).
    expect(Object.hasOwn(input.metadata!, "__proto__")).toBe(true);
    await store!.create(input);
    const fetched = await store!.get(input.assistantId, alice);
    expect(canonical(fetched!.metadata)).toBe(canonical(input.metadata));
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
    const found = await store!.search({ metadata: { "a.b": { "$.c": "%_\\" } } }, alice);
    expect(found.items.map((a) => a.assistantId)).toEqual([input.assistantId]);
    expect(await store!.count({ metadata: { "'; DROP TABLE assistants; --": "x" } }, alice)).toBe(1);
  });

  test("name search matches % _ and \\ literally", async ([store]) => {
    const plain = await store!.create(assistantInput({ name: "plain name" }));
    const odd = await store!.create(assistantInput({ name: "100%_done\\ok" }));
    const names = async (name: string) => (await store!.search({ name }, alice)).items.map((a) => a.assistantId);
    expect(await names("%")).toEqual([odd.assistantId]);
    expect(await names("_")).toEqual([odd.assistantId]);
    expect(await names("\\")).toEqual([odd.assistantId]);
    expect(await names("%_DONE")).toEqual([odd.assistantId]);
    expect(await names("plain")).toEqual([plain.assistantId]);
  });

  test("malformed input is INVALID_ARGUMENT and writes nothing", async ([store]) => {
    const bad: Array<Parameters<AssistantStore["create"]>[0]> = [
      assistantInput({ assistantId: "" }),
      assistantInput({ assistantId: "nul\u0000id" }),
      assistantInput({ graphId: "" }),
      assistantInput({ owner: "" }),
      assistantInput({ metadata: [] as never }),
      assistantInput({ metadata: { s: "nul\u0000" } }),
      assistantInput({ context: { s: "\uD800" } }),
      assistantInput({ config: "x" as never }),
      assistantInput({ name: 5 as never }),
      assistantInput({ name: "x".repeat(10_001) }),
      assistantInput({ ifExists: "overwrite" as never }),
    ];
    for (const input of bad) await expectRuntimeError(store!.create(input), "INVALID_ARGUMENT");
    const cyclic: Record<string, unknown> = {};
    cyclic["self"] = cyclic;
    await expectRuntimeError(store!.create(assistantInput({ metadata: cyclic })), "INVALID_ARGUMENT");
    expect(await store!.count({}, { allOwners: true })).toBe(0);
    const ok = await store!.create(assistantInput());
    await expectRuntimeError(store!.update(ok.assistantId, { metadata: { s: "\u0000" } }, alice), "INVALID_ARGUMENT");
    expect((await store!.listVersions(ok.assistantId, {}, alice)).map((v) => v.version)).toEqual([1]);
    await expectRuntimeError(store!.search({ limit: 0 }, alice), "INVALID_ARGUMENT");
    await expectRuntimeError(store!.search({ limit: 1001 }, alice), "INVALID_ARGUMENT");
    await expectRuntimeError(store!.search({ offset: -1 }, alice), "INVALID_ARGUMENT");
    await expectRuntimeError(store!.search({ sortBy: "owner" as never }, alice), "INVALID_ARGUMENT");
    await expectRuntimeError(store!.search({ sortOrder: "up" as never }, alice), "INVALID_ARGUMENT");
    await expectRuntimeError(store!.setLatest(ok.assistantId, 1.5, alice), "INVALID_ARGUMENT");
    // An id no store could hold is simply not found, on every call.
    const unstorable = "nul\u0000id";
    expect(await store!.get(unstorable, alice)).toBeUndefined();
    await expectRuntimeError(store!.update(unstorable, {}, alice), "ASSISTANT_NOT_FOUND");
    await expectRuntimeError(store!.delete(unstorable, alice), "ASSISTANT_NOT_FOUND");
    await expectRuntimeError(store!.listVersions(unstorable, {}, alice), "ASSISTANT_NOT_FOUND");
    await expectRuntimeError(store!.setLatest(unstorable, 1, alice), "ASSISTANT_NOT_FOUND");
  });
}

export function raceTests(test: AddAssistantTest, expect: ConformanceExpect): void {
  test("concurrent updates each get a distinct version and none is lost", async (stores) => {
    const input = assistantInput();
    await pick(stores, 0).create(input);
    const writers = 12;
    const { ok, failed } = await settle(
      Array.from({ length: writers }, (_, i) =>
        pick(stores, i).update(input.assistantId, { metadata: { [`w${i}`]: i } }, alice),
      ),
    );
    expect(failed.map(describeError)).toEqual([]);
    expect(ok.map((a) => a.version).sort((a, b) => a - b)).toEqual(Array.from({ length: writers }, (_, i) => i + 2));
    const current = await pick(stores, 0).get(input.assistantId, alice);
    expect(current!.version).toBe(writers + 1);
    // Each update merged into the one before it, so the last version holds every writer's key.
    expect(Object.keys(current!.metadata).sort()).toEqual(Array.from({ length: writers }, (_, i) => `w${i}`).sort());
    const versions = await pick(stores, 1).listVersions(input.assistantId, { limit: 100 }, alice);
    expect(versions.map((v) => v.version)).toEqual(Array.from({ length: writers + 1 }, (_, i) => writers + 1 - i));
  });

  test("concurrent creates of one id: exactly one succeeds, the others get ASSISTANT_EXISTS", async (stores) => {
    const input = assistantInput();
    const { ok, failed } = await settle(
      Array.from({ length: 8 }, (_, i) => pick(stores, i).create({ ...input, name: `n${i}` })),
    );
    expect(ok).toHaveLength(1);
    expect(failed.map(describeError)).toEqual(Array.from({ length: 7 }, () => "ASSISTANT_EXISTS"));
    expect((await pick(stores, 1).get(input.assistantId, alice))!.name).toBe(ok[0]!.name);
  });

  test("an update racing a delete either lands before it or fails with ASSISTANT_NOT_FOUND", async (stores) => {
    const input = assistantInput();
    await pick(stores, 0).create(input);
    const { failed } = await settle<unknown>([
      ...Array.from({ length: 5 }, (_, i) => pick(stores, i).update(input.assistantId, { name: `u${i}` }, alice)),
      pick(stores, 1).delete(input.assistantId, alice),
    ]);
    expect(failed.every((err) => describeError(err) === "ASSISTANT_NOT_FOUND")).toBe(true);
    expect(await pick(stores, 0).get(input.assistantId, alice)).toBeUndefined();
    await expectRuntimeError(pick(stores, 1).listVersions(input.assistantId, {}, alice), "ASSISTANT_NOT_FOUND");
  });
}
