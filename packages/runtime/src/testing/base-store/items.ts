/** Get, put, overwrite and delete of single items. */
import type { ConformanceExpect } from "@deerflow/kernel";
import type { AddStoreTest } from "./context.js";

export function itemTests(test: AddStoreTest, expect: ConformanceExpect): void {
  test("put then get returns the item with its namespace, key, value and timestamps", async ({ store, root }) => {
    const before = Date.now();
    await store.put([root, "prefs"], "theme", { color: "dark", size: 14, nested: { a: [1, "two", null] } });
    const item = await store.get([root, "prefs"], "theme");
    expect(item).not.toBeNull();
    expect(item?.namespace).toEqual([root, "prefs"]);
    expect(item?.key).toBe("theme");
    expect(item?.value).toEqual({ color: "dark", size: 14, nested: { a: [1, "two", null] } });
    expect(item?.createdAt).toBeInstanceOf(Date);
    expect(item?.updatedAt).toBeInstanceOf(Date);
    expect(item?.createdAt.getTime() ?? 0).toBeGreaterThan(before - 60_000);
  });

  test("a missing item is null, in a known and an unknown namespace", async ({ store, root }) => {
    await store.put([root, "a"], "k", { v: 1 });
    expect(await store.get([root, "a"], "other")).toBeNull();
    expect(await store.get([root, "never"], "k")).toBeNull();
  });

  test("put overwrites: the value is replaced, createdAt kept, updatedAt not earlier", async ({ store, root }) => {
    await store.put([root], "k", { v: 1, gone: true });
    const first = await store.get([root], "k");
    await store.put([root], "k", { v: 2 });
    const second = await store.get([root], "k");
    expect(second?.value).toEqual({ v: 2 });
    expect(second?.createdAt.getTime()).toBe(first?.createdAt.getTime());
    expect((second?.updatedAt.getTime() ?? 0) >= (first?.updatedAt.getTime() ?? 0)).toBe(true);
  });

  test("delete removes the item; deleting again or a missing one is not an error", async ({ store, root }) => {
    await store.put([root, "x"], "k", { v: 1 });
    await store.delete([root, "x"], "k");
    expect(await store.get([root, "x"], "k")).toBeNull();
    await store.delete([root, "x"], "k");
    await store.delete([root, "nothing"], "k");
  });

  test("items with the same key in sibling or nested namespaces are distinct", async ({ store, root }) => {
    await store.put([root, "a"], "k", { at: "a" });
    await store.put([root, "a", "b"], "k", { at: "a.b" });
    await store.put([root, "b"], "k", { at: "b" });
    expect((await store.get([root, "a"], "k"))?.value).toEqual({ at: "a" });
    expect((await store.get([root, "a", "b"], "k"))?.value).toEqual({ at: "a.b" });
    await store.delete([root, "a"], "k");
    expect((await store.get([root, "a", "b"], "k"))?.value).toEqual({ at: "a.b" });
    expect((await store.get([root, "b"], "k"))?.value).toEqual({ at: "b" });
  });

  test("batch returns one result per operation, in order", async ({ store, root }) => {
    await store.put([root], "seen", { v: 0 });
    const results = await store.batch([
      { namespace: [root], key: "new", value: { v: 1 } },
      { namespace: [root], key: "seen" },
      { namespacePrefix: [root], limit: 10, offset: 0 },
      { matchConditions: [{ matchType: "prefix", path: [root] }], limit: 10, offset: 0 },
    ]);
    expect(results).toHaveLength(4);
    expect(results[0] ?? undefined).toBeUndefined();
    expect((results[1] as unknown as { value: unknown }).value).toEqual({ v: 0 });
    expect(Array.isArray(results[2])).toBe(true);
    expect(results[3]).toEqual([[root]]);
    expect((await store.get([root], "new"))?.value).toEqual({ v: 1 });
  });

  test("keys are opaque strings: spaces, slashes, dots, unicode and SQL quotes round-trip", async ({ store, root }) => {
    const keys = ["with space", "a/b/../c", "dots.in.key", "ключ-🔑", "it's'; DROP TABLE store;--", "%_\\"];
    for (const key of keys) await store.put([root], key, { key });
    for (const key of keys) expect((await store.get([root], key))?.value).toEqual({ key });
    expect((await store.search([root], { limit: 100 })).length).toBe(keys.length);
  });

  test("labels with LIKE metacharacters and escape-like text round-trip through put, get, search and listing", async ({
    store,
    root,
  }) => {
    const labels = ["user_prefs", "50%", "back\\slash", "ti~de", "~5f"];
    for (const label of labels) await store.put([root, label], "k", { label });
    for (const label of labels) {
      const item = await store.get([root, label], "k");
      expect(item?.namespace, label).toEqual([root, label]);
      expect(item?.value, label).toEqual({ label });
      expect((await store.search([root, label])).map((i) => i.namespace)).toEqual([[root, label]]);
    }
    const listed = await store.listNamespaces({ prefix: [root], limit: 100 });
    expect([...listed].sort()).toEqual(labels.map((label) => [root, label]).sort());
    // "user_prefs" must not match "userXprefs" as a LIKE pattern would.
    await store.put([root, "userXprefs"], "k", { label: "userXprefs" });
    expect((await store.search([root, "user_prefs"])).map((i) => i.value)).toEqual([{ label: "user_prefs" }]);
  });

  test("a large value (2 MB of text, 10 000 fields) round-trips intact", async ({ store, root }) => {
    const big = "x".repeat(2 * 1024 * 1024);
    const fields = Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`f${i}`, i]));
    await store.put([root], "big", { big });
    await store.put([root], "wide", fields);
    expect((await store.get([root], "big"))?.value["big"]).toBe(big);
    expect(Object.keys((await store.get([root], "wide"))?.value ?? {})).toHaveLength(10_000);
  }, 60_000);
}
