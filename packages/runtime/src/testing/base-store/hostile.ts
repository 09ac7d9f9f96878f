/** Hostile input and concurrent writers. */
import type { ConformanceExpect } from "@deerflow/kernel";
import { keysOf, type AddStoreTest } from "./context.js";

export function hostileTests(test: AddStoreTest, expect: ConformanceExpect): void {
  test("namespace labels with dots, colons, NUL or empty labels are refused on put", async ({ store, root }) => {
    for (const ns of [[root, "a.b"], [root, ""], [root, "a:b"], [root, "a\u0000b"], []]) {
      await expect(store.put(ns, "k", { v: 1 })).rejects.toThrow();
    }
    expect(await store.search([root])).toEqual([]);
    expect(await store.listNamespaces({ prefix: [root] })).toEqual([]);
  });

  test("a batch with one malformed write writes nothing", async ({ store, root }) => {
    await expect(
      store.batch([
        { namespace: [root], key: "good", value: { v: 1 } },
        { namespace: [root, "bad.label"], key: "k", value: { v: 2 } },
      ]),
    ).rejects.toThrow();
    expect(await store.get([root], "good")).toBeNull();
  });

  test("a filter with an unknown operator is refused or matches nothing, never everything", async ({ store, root }) => {
    await store.put([root], "a", { score: 1 });
    let found: unknown[] = [];
    try {
      found = await store.search([root], { filter: { score: { $regex: ".*" } } });
    } catch {
      found = [];
    }
    expect(found).toEqual([]);
  });

  test("labels holding SQL and LIKE metacharacters cannot widen a prefix", async ({ store, root }) => {
    await store.put([root, "abc"], "k", { v: 1 });
    for (const label of ["%", "a%", "_bc", "a_c", "\\", "' OR 1=1 --"]) {
      let found: unknown[] = [];
      try {
        found = await store.search([root, label]);
      } catch {
        found = [];
      }
      expect(found, `prefix label ${JSON.stringify(label)}`).toEqual([]);
    }
  });

  test("concurrent writers: 200 parallel puts over 20 keys leave one consistent value per key", async ({
    store,
    root,
  }) => {
    await Promise.all(
      Array.from({ length: 200 }, (_, i) => store.put([root, "race"], `k${i % 20}`, { writer: i, key: `k${i % 20}` })),
    );
    const items = await store.search([root, "race"], { limit: 100 });
    expect(items).toHaveLength(20);
    for (const item of items) {
      expect(item.value["key"]).toBe(item.key);
      expect(Number(item.value["writer"]) % 20).toBe(Number(item.key.slice(1)));
    }
  });

  test("concurrent puts and deletes of distinct keys all take effect", async ({ store, root }) => {
    for (let i = 0; i < 50; i += 1) await store.put([root], `old${i}`, { i });
    await Promise.all([
      ...Array.from({ length: 50 }, (_, i) => store.put([root], `new${i}`, { i })),
      ...Array.from({ length: 50 }, (_, i) => store.delete([root], `old${i}`)),
      ...Array.from({ length: 20 }, () => store.search([root], { limit: 5 })),
    ]);
    const keys = keysOf(await store.search([root], { limit: 1000 }));
    expect(keys).toEqual(Array.from({ length: 50 }, (_, i) => `new${i}`).sort());
  });
}
