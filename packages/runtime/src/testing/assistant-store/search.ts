/** Search, count, ordering, pagination and owner isolation. */
import type { ConformanceExpect } from "@deerflow/kernel";
import type { AssistantStore } from "../../assistants/assistant-store.js";
import { expectRuntimeError } from "../run-store/context.js";
import { assistantInput, tick, type AddAssistantTest } from "./context.js";

const alice = { owner: "alice" } as const;
const bob = { owner: "bob" } as const;
const admin = { allOwners: true } as const;

/** Creates three assistants of alice and one of bob, a few ms apart, returning their ids in creation order. */
async function seed(store: AssistantStore): Promise<string[]> {
  const specs = [
    { name: "Research Helper", graphId: "agent", metadata: { team: "blue", level: { n: 1, tags: ["x", "y"] } } },
    { name: "writer", graphId: "agent", metadata: { team: "red" } },
    { name: "RESEARCH lead", graphId: "other", metadata: { team: "blue" } },
  ];
  const ids: string[] = [];
  for (const spec of specs) {
    ids.push((await store.create(assistantInput(spec))).assistantId);
    await tick();
  }
  ids.push(
    (await store.create(assistantInput({ owner: "bob", name: "bob research", metadata: { team: "blue" } })))
      .assistantId,
  );
  return ids;
}

export function searchTests(test: AddAssistantTest, expect: ConformanceExpect): void {
  test("search filters by graph id, name substring (case-insensitive) and metadata containment", async ([store]) => {
    const [help, writer, lead] = await seed(store!);
    const ids = async (query: Parameters<AssistantStore["search"]>[0]) =>
      (await store!.search(query, alice)).items.map((a) => a.assistantId);
    expect(await ids({ graphId: "agent" })).toEqual([writer, help]);
    expect(await ids({ name: "research" })).toEqual([lead, help]);
    expect(await ids({ metadata: { team: "blue" } })).toEqual([lead, help]);
    expect(await ids({ metadata: { level: { tags: ["y"] } } })).toEqual([help]);
    expect(await ids({ metadata: { level: { tags: "y" } } })).toEqual([]);
    expect(await ids({ graphId: "agent", name: "RESEARCH", metadata: { team: "blue" } })).toEqual([help]);
    expect(await ids({ name: "" })).toHaveLength(3);
  });

  test("search sorts by each field, ties by id, and paginates with the total", async ([store]) => {
    const [help, writer, lead] = await seed(store!);
    const first = await store!.search({ limit: 2 }, alice);
    expect(first.items.map((a) => a.assistantId)).toEqual([lead, writer]);
    expect(first.total).toBe(3);
    const second = await store!.search({ limit: 2, offset: 2 }, alice);
    expect(second.items.map((a) => a.assistantId)).toEqual([help]);
    expect(second.total).toBe(3);
    const byName = await store!.search({ sortBy: "name", sortOrder: "asc" }, alice);
    // Code-point order: upper case sorts before lower case.
    expect(byName.items.map((a) => a.name)).toEqual(["RESEARCH lead", "Research Helper", "writer"]);
    const byCreated = await store!.search({ sortBy: "createdAt", sortOrder: "asc" }, alice);
    expect(byCreated.items.map((a) => a.assistantId)).toEqual([help, writer, lead]);
    await store!.update(help!, { name: "touched" }, alice);
    const byUpdated = await store!.search({ sortBy: "updatedAt", sortOrder: "desc", limit: 1 }, alice);
    expect(byUpdated.items[0]!.assistantId).toBe(help);
    const byId = await store!.search({ sortBy: "assistantId", sortOrder: "asc" }, alice);
    expect(byId.items.map((a) => a.assistantId)).toEqual([help!, writer!, lead!].sort());
    const beyond = await store!.search({ offset: 10 }, alice);
    expect(beyond).toEqual({ items: [], total: 3 });
  });

  test("count applies the same filter as search", async ([store]) => {
    await seed(store!);
    expect(await store!.count({}, alice)).toBe(3);
    expect(await store!.count({ name: "research" }, alice)).toBe(2);
    expect(await store!.count({ metadata: { team: "blue" } }, alice)).toBe(2);
    expect(await store!.count({ graphId: "none" }, alice)).toBe(0);
    expect(await store!.count({ metadata: { team: "blue" } }, admin)).toBe(3);
  });

  test("owners are isolated: another owner's assistant is missing for every call; allOwners sees all", async ([
    store,
  ]) => {
    const [help, , , bobs] = await seed(store!);
    expect(await store!.get(help!, bob)).toBeUndefined();
    expect(await store!.get(bobs!, alice)).toBeUndefined();
    expect((await store!.search({}, bob)).items.map((a) => a.assistantId)).toEqual([bobs]);
    expect((await store!.search({}, bob)).total).toBe(1);
    expect(await store!.count({}, bob)).toBe(1);
    expect((await store!.search({ limit: 100 }, admin)).total).toBe(4);
    await expectRuntimeError(store!.update(help!, { name: "hijack" }, bob), "ASSISTANT_NOT_FOUND");
    await expectRuntimeError(store!.delete(help!, bob), "ASSISTANT_NOT_FOUND");
    await expectRuntimeError(store!.listVersions(help!, {}, bob), "ASSISTANT_NOT_FOUND");
    await expectRuntimeError(store!.setLatest(help!, 1, bob), "ASSISTANT_NOT_FOUND");
    expect((await store!.get(help!, alice))!.name).toBe("Research Helper");
    // An administrator may act on anyone's assistant; the owner stays the creator.
    const changed = await store!.update(help!, { name: "by admin" }, admin);
    expect(changed).toMatchObject({ owner: "alice", name: "by admin", version: 2 });
  });

  test("a scope must be explicit: anything but { owner } or { allOwners: true } is INVALID_ARGUMENT", async ([
    store,
  ]) => {
    const [help] = await seed(store!);
    for (const scope of [undefined, null, {}, { owner: "" }, { allOwners: false }, { owner: 1 }] as never[]) {
      await expectRuntimeError(store!.get(help!, scope), "INVALID_ARGUMENT");
      await expectRuntimeError(store!.search({}, scope), "INVALID_ARGUMENT");
      await expectRuntimeError(store!.count({}, scope), "INVALID_ARGUMENT");
    }
  });
}
