/** listNamespaces: prefix, suffix, wildcards, maxDepth, limit and offset. */
import type { ConformanceExpect } from "@deerflow/kernel";
import type { AddStoreTest } from "./context.js";

export function namespaceTests(test: AddStoreTest, expect: ConformanceExpect): void {
  const seed = async (store: import("@langchain/langgraph-checkpoint").BaseStore, root: string) => {
    await store.put([root, "users", "alice", "memory"], "k", { v: 1 });
    await store.put([root, "users", "alice", "prefs"], "k", { v: 1 });
    await store.put([root, "users", "bob", "memory"], "k", { v: 1 });
    await store.put([root, "docs"], "k", { v: 1 });
  };

  test("a prefix lists every namespace holding items under it, in label order", async ({ store, root }) => {
    await seed(store, root);
    expect(await store.listNamespaces({ prefix: [root] })).toEqual([
      [root, "docs"],
      [root, "users", "alice", "memory"],
      [root, "users", "alice", "prefs"],
      [root, "users", "bob", "memory"],
    ]);
    expect(await store.listNamespaces({ prefix: [root, "users", "bob"] })).toEqual([[root, "users", "bob", "memory"]]);
    expect(await store.listNamespaces({ prefix: [root, "nobody"] })).toEqual([]);
  });

  test("a suffix (with the prefix) keeps the namespaces ending with it", async ({ store, root }) => {
    await seed(store, root);
    expect(await store.listNamespaces({ prefix: [root], suffix: ["memory"] })).toEqual([
      [root, "users", "alice", "memory"],
      [root, "users", "bob", "memory"],
    ]);
  });

  test("* matches any one label", async ({ store, root }) => {
    await seed(store, root);
    expect(await store.listNamespaces({ prefix: [root, "users", "*", "prefs"] })).toEqual([
      [root, "users", "alice", "prefs"],
    ]);
  });

  test("maxDepth truncates namespaces and lists each truncation once", async ({ store, root }) => {
    await seed(store, root);
    expect(await store.listNamespaces({ prefix: [root], maxDepth: 2 })).toEqual([
      [root, "docs"],
      [root, "users"],
    ]);
    expect(await store.listNamespaces({ prefix: [root], maxDepth: 3 })).toEqual([
      [root, "docs"],
      [root, "users", "alice"],
      [root, "users", "bob"],
    ]);
  });

  test("limit and offset page the listing", async ({ store, root }) => {
    await seed(store, root);
    const first = await store.listNamespaces({ prefix: [root], limit: 2, offset: 0 });
    const rest = await store.listNamespaces({ prefix: [root], limit: 10, offset: 2 });
    expect(first).toHaveLength(2);
    expect([...first, ...rest]).toEqual(await store.listNamespaces({ prefix: [root] }));
  });
}
