/** Search: namespace prefixes on whole labels, filters, limit and offset. */
import type { ConformanceExpect } from "@deerflow/kernel";
import { keysOf, type AddStoreTest } from "./context.js";

export function searchTests(test: AddStoreTest, expect: ConformanceExpect): void {
  test("a prefix finds items in the namespace and every namespace under it", async ({ store, root }) => {
    await store.put([root, "docs"], "a", { n: 1 });
    await store.put([root, "docs", "deep", "er"], "b", { n: 2 });
    await store.put([root, "other"], "c", { n: 3 });
    expect(keysOf(await store.search([root, "docs"]))).toEqual(["a", "b"]);
    expect(keysOf(await store.search([root]))).toEqual(["a", "b", "c"]);
    const found = await store.search([root, "docs", "deep"]);
    expect(found.map((i) => i.namespace)).toEqual([[root, "docs", "deep", "er"]]);
    expect(found[0]?.value).toEqual({ n: 2 });
  });

  test("a prefix matches whole labels: [user1] never finds [user10]", async ({ store, root }) => {
    await store.put([root, "user1"], "mine", { v: 1 });
    await store.put([root, "user10"], "theirs", { v: 2 });
    await store.put([root, "user1x", "deep"], "theirs-too", { v: 3 });
    expect(keysOf(await store.search([root, "user1"]))).toEqual(["mine"]);
    expect(await store.listNamespaces({ prefix: [root, "user1"] })).toEqual([[root, "user1"]]);
  });

  test("the empty prefix searches the whole store", async ({ store, root }) => {
    await store.put([root, "a"], "k", { mark: root });
    const found = await store.search([], { filter: { mark: root }, limit: 1000 });
    expect(keysOf(found)).toEqual(["k"]);
  });

  test("equality filters on top-level fields", async ({ store, root }) => {
    await store.put([root], "a", { kind: "fact", score: 1, ok: true });
    await store.put([root], "b", { kind: "fact", score: 2, ok: false });
    await store.put([root], "c", { kind: "summary", score: 3, ok: true });
    expect(keysOf(await store.search([root], { filter: { kind: "fact" } }))).toEqual(["a", "b"]);
    expect(keysOf(await store.search([root], { filter: { kind: "fact", ok: true } }))).toEqual(["a"]);
    expect(keysOf(await store.search([root], { filter: { score: 3 } }))).toEqual(["c"]);
    expect(await store.search([root], { filter: { kind: "none" } })).toEqual([]);
    expect(await store.search([root], { filter: { missing: "x" } })).toEqual([]);
  });

  test("comparison operators: $eq $ne $gt $gte $lt $lte $in $nin", async ({ store, root }) => {
    for (const [key, score] of [
      ["a", 1],
      ["b", 2],
      ["c", 3],
      ["d", 4],
    ] as const) {
      await store.put([root], key, { score, tag: key === "a" ? "x" : "y" });
    }
    const keys = async (filter: Record<string, unknown>) => keysOf(await store.search([root], { filter }));
    expect(await keys({ score: { $eq: 2 } })).toEqual(["b"]);
    expect(await keys({ score: { $ne: 2 } })).toEqual(["a", "c", "d"]);
    expect(await keys({ score: { $gt: 2 } })).toEqual(["c", "d"]);
    expect(await keys({ score: { $gte: 2 } })).toEqual(["b", "c", "d"]);
    expect(await keys({ score: { $lt: 2 } })).toEqual(["a"]);
    expect(await keys({ score: { $lte: 2 } })).toEqual(["a", "b"]);
    expect(await keys({ score: { $gt: 1, $lt: 4 } })).toEqual(["b", "c"]);
    expect(await keys({ tag: "y", score: { $gte: 3 } })).toEqual(["c", "d"]);
  });

  test("limit and offset page through the matches without overlap or gaps", async ({ store, root }) => {
    for (let i = 0; i < 25; i += 1) await store.put([root, `ns${i % 3}`], `k${i}`, { i, even: i % 2 === 0 });
    const seen: string[] = [];
    for (let offset = 0; offset < 30; offset += 7) {
      const page = await store.search([root], { limit: 7, offset });
      expect(page.length).toBe(Math.max(0, Math.min(7, 25 - offset)));
      seen.push(...page.map((i) => `${i.namespace.join("/")}:${i.key}`));
    }
    expect(new Set(seen).size).toBe(25);
    const evens: string[] = [];
    for (let offset = 0; offset < 13; offset += 5) {
      evens.push(...(await store.search([root], { filter: { even: true }, limit: 5, offset })).map((i) => i.key));
    }
    expect(evens.sort()).toEqual(Array.from({ length: 13 }, (_, n) => `k${n * 2}`).sort());
    expect(await store.search([root], { limit: 0 })).toEqual([]);
    expect((await store.search([root])).length).toBe(10);
  });

  test("a query without a vector index does not hide items", async ({ store, root }) => {
    await store.put([root], "a", { text: "apples and pears" });
    const found = await store.search([root], { query: "apples" });
    expect(keysOf(found)).toEqual(["a"]);
  });
}
