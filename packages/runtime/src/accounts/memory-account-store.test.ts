import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { accountStoreConformance } from "../testing/account-store-conformance.js";
import { MemoryAccountStore } from "./memory-account-store.js";

accountStoreConformance({
  name: "MemoryAccountStore",
  makeStore: async () => ({ store: new MemoryAccountStore() }),
  describe,
  it,
  expect,
  beforeEach,
  afterEach,
});

describe("MemoryAccountStore", () => {
  it("fails with CLOSED after close", async () => {
    const store = new MemoryAccountStore();
    await store.close();
    await expect(store.countUsers()).rejects.toMatchObject({ code: "CLOSED" });
  });

  it("stamps records with its injected clock", async () => {
    const store = new MemoryAccountStore({ now: () => new Date("2031-02-03T04:05:06.007Z") });
    const user = await store.createUser({ email: "a@example.com", passwordHash: "h", systemRole: "user" });
    expect([user.createdAt, user.updatedAt]).toEqual(["2031-02-03T04:05:06.007Z", "2031-02-03T04:05:06.007Z"]);
  });
});
