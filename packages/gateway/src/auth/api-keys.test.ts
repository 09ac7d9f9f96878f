import { describe, expect, it } from "vitest";
import { GatewayError } from "../errors.js";
import { ApiKeyRing, presentedKey } from "./api-keys.js";

describe("ApiKeyRing", () => {
  const ring = new ApiKeyRing({ apiKeys: ["plain-key", { key: "root-key", admin: true, userId: "ops" }] });

  it("gives a bare key the non-admin default user", () => {
    expect(ring.match("plain-key")).toEqual({ userId: "default", admin: false, authenticated: true });
  });

  it("gives an object key its admin flag and user", () => {
    expect(ring.match("root-key")).toEqual({ userId: "ops", admin: true, authenticated: true });
  });

  it("gives a key its configured role (for authorization), and none when unset", () => {
    const roles = new ApiKeyRing({ apiKeys: [{ key: "guest-key", userId: "g", role: "guest" }] });
    expect(roles.match("guest-key")).toEqual({ userId: "g", admin: false, authenticated: true, role: "guest" });
    expect(ring.match("root-key")).not.toHaveProperty("role");
  });

  it.each([
    ["a prefix", "root"],
    ["a longer key", "root-key-x"],
    ["an empty key", ""],
    ["another case", "ROOT-KEY"],
  ])("rejects %s", (_l, key) => {
    expect(ring.match(key)).toBeUndefined();
  });

  it.each([
    ["no keys", { apiKeys: [] }],
    ["an empty key", { apiKeys: [""] }],
    ["a repeated key", { apiKeys: ["a", { key: "a" }] }],
    ["a user id with a slash", { apiKeys: [{ key: "a", userId: "../x" }] }],
    ["the user id ..", { apiKeys: [{ key: "a", userId: ".." }] }],
    ["an empty role", { apiKeys: [{ key: "a", role: "" }] }],
    ["a role with a space", { apiKeys: [{ key: "a", role: "power user" }] }],
  ])("refuses a configuration with %s", (_l, options) => {
    expect(() => new ApiKeyRing(options)).toThrow(GatewayError);
  });
});

describe("presentedKey", () => {
  it("reads a Bearer token whatever the scheme's case", () => {
    expect(presentedKey({ authorization: "Bearer abc" })).toBe("abc");
    expect(presentedKey({ authorization: "bearer  abc " })).toBe("abc");
  });

  it("reads X-API-Key when there is no bearer token", () => {
    expect(presentedKey({ "x-api-key": "abc" })).toBe("abc");
    expect(presentedKey({ authorization: "Basic Zm9v", "x-api-key": "abc" })).toBe("abc");
  });

  it("ignores a repeated X-API-Key and empty values", () => {
    expect(presentedKey({ "x-api-key": ["a", "b"] })).toBeUndefined();
    expect(presentedKey({ "x-api-key": "" })).toBeUndefined();
    expect(presentedKey({})).toBeUndefined();
  });
});
