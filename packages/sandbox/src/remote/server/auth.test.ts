import { describe, expect, it } from "vitest";
import { SandboxError } from "../../errors.js";
import { KeyRing } from "./auth.js";

const ring = new KeyRing(
  [
    { id: "alpha", key: "k3y-alpha" },
    { id: "beta", key: "k3y-beta" },
  ],
  "k3y-admin",
);

function configCode(build: () => unknown): string {
  try {
    build();
    return "accepted";
  } catch (err) {
    return SandboxError.isInstance(err) ? err.code : String(err);
  }
}

describe("KeyRing", () => {
  it("identifies each client by its key and the admin by the admin key", () => {
    expect(ring.identify("k3y-alpha")).toEqual({ clientId: "alpha", admin: false });
    expect(ring.identify("k3y-beta")).toEqual({ clientId: "beta", admin: false });
    expect(ring.identify("k3y-admin")).toEqual({ clientId: "admin", admin: true });
  });

  it.each([
    ["a different key of the same length", "k3y-alphb"],
    ["a prefix", "k3y-alph"],
    ["a longer key", "k3y-alphak3y-alpha"],
    ["an empty key", ""],
  ])("rejects %s", (_label, presented) => {
    expect(ring.identify(presented)).toBeUndefined();
  });

  it("rejects a missing or repeated header", () => {
    expect(ring.identify(undefined)).toBeUndefined();
    expect(ring.identify(["k3y-alpha", "k3y-alpha"])).toBeUndefined();
  });

  it("is empty only without any key", () => {
    expect(new KeyRing([]).empty).toBe(true);
    expect(new KeyRing([], "k3y-admin").empty).toBe(false);
    expect(ring.empty).toBe(false);
  });

  it.each([
    ["a client id with a dot", () => new KeyRing([{ id: "a.b", key: "k" }])],
    ["an empty client id", () => new KeyRing([{ id: "", key: "k" }])],
    ["the reserved id admin", () => new KeyRing([{ id: "admin", key: "k" }])],
    [
      "a repeated client id",
      () =>
        new KeyRing([
          { id: "a", key: "k1" },
          { id: "a", key: "k2" },
        ]),
    ],
    [
      "two clients sharing a key",
      () =>
        new KeyRing([
          { id: "a", key: "k" },
          { id: "b", key: "k" },
        ]),
    ],
    ["a client sharing the admin key", () => new KeyRing([{ id: "a", key: "k" }], "k")],
    ["an empty client key", () => new KeyRing([{ id: "a", key: "" }])],
    ["an empty admin key", () => new KeyRing([], "")],
  ])("refuses %s with CONFIG_INVALID", (_label, build) => {
    expect(configCode(build)).toBe("CONFIG_INVALID");
  });

  it("never puts a key in its configuration errors", () => {
    let message = "";
    try {
      new KeyRing([
        { id: "a", key: "super-secret-value" },
        { id: "b", key: "super-secret-value" },
      ]);
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).not.toBe("");
    expect(message).not.toContain("super-secret-value");
  });
});
