/** Where the server's long-term store lives, for each checkpointer choice. */
import { describe, expect, it } from "vitest";
import { graphStoreConfigOf } from "./graph-store.js";

const storage = { dataDir: "/srv/data" };
const at = (checkpointer: unknown, env: NodeJS.ProcessEnv = {}, checkpointerSchema?: string) =>
  graphStoreConfigOf({ runtime: { checkpointer } as never, storage }, { checkpointerSchema }, env);

describe("graphStoreConfigOf", () => {
  it("follows the checkpointer: file → store.sqlite in the data dir, memory → memory", () => {
    expect(at({ type: "file", path: "/elsewhere/cp.sqlite" })).toEqual({
      type: "file",
      path: "/srv/data/store.sqlite",
    });
    expect(at({ type: "memory" })).toEqual({ type: "memory" });
  });

  it("uses the checkpointer's PostgreSQL database and schema", () => {
    expect(at({ type: "postgres", databaseUrl: "postgres://db/x" })).toEqual({
      type: "postgres",
      connectionString: "postgres://db/x",
    });
    expect(at({ type: "postgres", databaseUrl: "postgres://db/x" }, {}, "deer")).toMatchObject({ schema: "deer" });
    expect(at({ type: "postgres", databaseUrl: "postgres://db/x", schema: "own" }, {}, "deer")).toMatchObject({
      schema: "own",
    });
  });

  it("with a checkpointer plugin: PostgreSQL when DATABASE_URL is set, else the SQLite file", () => {
    const plugin = { type: "plugin", use: "x:y", options: {} };
    expect(at(plugin, { DATABASE_URL: "postgres://db/y" })).toEqual({
      type: "postgres",
      connectionString: "postgres://db/y",
    });
    expect(at(plugin, { DATABASE_URL: " " })).toEqual({ type: "file", path: "/srv/data/store.sqlite" });
  });
});
